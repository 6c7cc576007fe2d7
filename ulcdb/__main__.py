"""``python -m ulcdb``: the same CLI as the ``ulcdb`` command."""

from ulcdb.cli.main import app

if __name__ == "__main__":
    app(prog_name="ulcdb")
