"""The one error users see: bad input, reported in one line, exit code 2."""


class InputError(Exception):
    """Bad input from a user: a file, a key, a value.

    ``str(err)`` is the whole message: the file, the place (line or key path) and
    what was expected. The CLI prints it and exits 2, never with a traceback.
    """

    def __init__(self, message: str, *, file: str | None = None, place: str | None = None):
        self.file = file
        self.place = place
        self.detail = message
        where = ": ".join(p for p in (file, place) if p)
        super().__init__(f"{where}: {message}" if where else message)
