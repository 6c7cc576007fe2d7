"""``python -m ulcdb``: the same CLI as the ``ulcdb`` command."""

from ulcdb.cli.main import main

if __name__ == "__main__":
    main()
