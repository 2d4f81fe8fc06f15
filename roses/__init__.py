"""roses: play and study The Rose King and Wars of the Roses."""

__version__ = "0.1.0"
