"""Files the local table writes (pictures of the table, a hand or a pack; deck lists):
where a name typed at the table puts them, and writing them without overwriting.

One rule for every command that writes a file:

* nothing typed: the command's ``default`` name in the command's folder: the table's
  data folder (beside its database; :func:`pictures_folder` in it for pictures),
  never in whatever folder the terminal happens to be in;
* a bare name (no folder part): in that folder too, the command's ``suffix`` added
  when the name has none;
* a path (with a folder part, or ``~``): as typed; a folder gets ``default`` in it.

A file that exists is never overwritten, and the folder must exist (the data folder
and its pictures folder are made when needed). Every refusal is an
:class:`Unwritable` saying why in words.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from bot.errors import CroupierError
from bot.i18n import Text
from rules.errors import shown

PATH_SHOWN = 240
"""A path is said whole up to this length (a person needs it to find the file; only a
path of typed garbage is shortened)."""


PICTURES = "pictures"
"""The folder in the data folder where pictures go."""


def data_folder(database: str | Path) -> Path:
    """The table's data folder: the folder of its database."""
    return Path(database).absolute().parent


def pictures_folder(database: str | Path) -> Path:
    """Where pictures go (a name typed without a folder, or none): ``pictures`` in
    the data folder, never the folder the terminal is in (a clone's root, say)."""
    return data_folder(database) / PICTURES


class Unwritable(CroupierError):
    """A file the table cannot write where it was asked to; the message says why."""


def target(typed: str, default: str, folder: Path, *, suffix: str = "") -> Path:
    """Where a file asked for as ``typed`` goes (the module's rule), as an absolute path.

    >>> folder = Path("/data")
    >>> [str(target(t, "t.png", folder, suffix=".png")) for t in ("", "mine", "/tmp")]
    ['/data/t.png', '/data/mine.png', '/tmp/t.png']
    """
    typed = typed.strip()
    if any(not ch.isprintable() for ch in typed):
        raise Unwritable(Text("terminal.file.bad_characters", name=shown(typed)))
    bare = typed not in ("", ".", "..") and os.sep not in typed and "/" not in typed \
        and not typed.startswith("~")
    if not typed:
        path = folder / default
    elif bare:
        path = folder / (typed if Path(typed).suffix else typed + suffix)
    else:
        path = Path(os.path.expanduser(typed))
        if os.path.isdir(path):  # isdir, unlike Path.is_dir, never raises
            path = path / default
    return path.absolute()


def check_new(path: Path, *, folder: Path | None = None) -> Path:
    """``path``, refused unless a new file can be made there: it must not exist and
    its folder must (``folder``, the data folder, is made when it is the one)."""
    if folder is not None and path.parent == folder.absolute():
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise Unwritable(why(path, error)) from None
    if os.path.lexists(path):
        raise Unwritable(why(path, FileExistsError()))
    if not os.path.isdir(path.parent):
        # Said as the system would: a file on the way, or a folder missing.
        above = next((p for p in path.parents if os.path.lexists(p)), None)
        missing = above is None or os.path.isdir(above)
        raise Unwritable(why(path, FileNotFoundError() if missing else NotADirectoryError()))
    return path


def write_new(path: Path, data: bytes) -> None:
    """Write ``data`` to a file that does not exist yet (an existing file is the
    person's: never overwritten); on failure nothing is left behind."""
    created = False
    try:
        with open(path, "xb") as out:
            created = True
            out.write(data)
    except (OSError, ValueError) as error:
        if created:  # a full disk, say: no half file is kept
            path.unlink(missing_ok=True)
        raise Unwritable(why(path, error)) from None


def why(path: Path, error: OSError | ValueError) -> Text:
    """Why a file cannot be written at ``path``, in words (the system's own reason, in
    its language, when none of ours fits).

    >>> why(Path("/x/y.png"), FileNotFoundError()).english()
    "The folder '/x' does not exist."
    """
    said = shown(str(path), PATH_SHOWN)
    if isinstance(error, FileExistsError):
        return Text("terminal.file.exists", path=said)
    if isinstance(error, FileNotFoundError):
        return Text("terminal.file.no_folder", folder=shown(str(path.parent), PATH_SHOWN))
    if isinstance(error, PermissionError):
        return Text("terminal.file.no_permission", path=said)
    if isinstance(error, NotADirectoryError):
        return Text("terminal.file.not_a_folder", path=said)
    if getattr(error, "errno", None) == errno.ENAMETOOLONG:
        return Text("terminal.file.too_long", path=said)
    return Text("terminal.file.cannot", path=said,
                reason=getattr(error, "strerror", None) or str(error))
