"""The one error a command raises for bad input: ``main`` prints it on one line, exit 2."""


class UserError(Exception):
    pass
