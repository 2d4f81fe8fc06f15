"""Wars of the Roses: Lancaster vs York engine: rules WR-1..WR-20 of shared/rules/.

This package knows nothing of servers, web pages or bots.
"""
