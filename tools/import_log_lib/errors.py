"""The two ways an import fails: a log that is not what it claims (LogError) and a command line
that cannot be carried out (UsageError); both exit 2 with one message and nothing written."""


class LogError(Exception):
    """A malformed or unsupported log: the message names the file and where in it."""


class UsageError(Exception):
    """Options that do not fit the log or each other."""
