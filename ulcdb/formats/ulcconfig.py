"""ULC.config and IQMT IQsetup.config / IQeval.config files.

Syntax (ULC 0.4.2 technical manual, section 2.1; IQMT 2.0 manual, section 4.1):

* ``KEY=value`` lines, ``#`` comments, blank lines;
* files: ``src=``/``source=`` (one), ``ref=`` and ``sys=``/``system=`` (repeated); relative
  paths are relative to the config file's folder;
* options: ``LANG=`` (target language, ``ENG``), ``CASE=all|lc``, ``INPUT=xml|raw`` (NIST SGML
  or one segment per line; without ``INPUT`` the source file's content decides), ``NAME=``
  (IQMT experiment name, the test-bed name), ``PATH=``/``IQMT=`` (install folders, ignored);
* set definitions ``setname= member member ...``, which may go on over indented lines; the
  kind follows from the members: a name with the word ``metrics`` (``metrics_DEFAULT``,
  ``2_metrics_LEX``, ``some_metrics``) is a metric set; otherwise all systems -> system set,
  all references -> reference set, all segment numbers or ranges (``1-3, 10, 50..100``) ->
  segment set, none of these -> metric set; members may also be ULC's positional names ``S0``,
  ``S1``... / ``R0``... (systems and references in the order declared);
* IQsetup's ``doBLEU [variants]`` lines, which become the metric set ``metrics``.

Raw files are named after their file stems (the full file name where two stems clash), SGML
ones after their ``sysid``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ulcdb.errors import InputError
from ulcdb.formats.nist.sgml import read_sgml
from ulcdb.formats.plain import read_plain
from ulcdb.ingest.model import NamedSet, TestbedData
from ulcdb.ingest.textio import check_file, read_lines
from ulcdb.metrics.languages import set_language

# docs= is a ulcdb extension: a documents file for raw input (see read_plain's --docs).
_FILE_KEYS = {"src": "src", "source": "src", "ref": "ref", "sys": "sys", "system": "sys",
              "docs": "docs"}
_OPTION_KEYS = {"PATH", "IQMT", "NAME", "LANG", "CASE", "INPUT", "SRCLANG", "TRGLANG"}
_CHOICES = {"CASE": ("all", "lc"), "INPUT": ("xml", "raw")}
# IQsetup's metric families and their variants (IQMT 2.0 manual, section 4.1).
_FAMILIES = {
    "doBLEU": ["BLEU-1", "BLEU-2", "BLEU-3", "BLEU-4", "BLEUi-2", "BLEUi-3", "BLEUi-4"],
    "doNIST": ["NIST-1", "NIST-2", "NIST-3", "NIST-4", "NIST-5",
               "NISTi-2", "NISTi-3", "NISTi-4", "NISTi-5"],
    "doGTM": ["GTM-1", "GTM-2", "GTM-3"],
    "doMETEOR": ["MTR-exact", "MTR-stem", "MTR-wnstm", "MTR-wnsyn"],
    "doROUGE": ["RG-1", "RG-2", "RG-3", "RG-4", "RG-L", "RG-W-1.2", "RG-S*", "RG-SU*"],
}  # fmt: skip
_SET_NAME = re.compile(r"^[\w.+-]+$")
_SEGMENT_SPEC = re.compile(r"^(\d+)(?:(?:-|\.\.)(\d+))?$")
_SGML_HINT = re.compile(rb"<\s*(srcset|refset|tstset|doc)\b", re.IGNORECASE)


@dataclass
class _SetDefinition:
    name: str
    members: list[str]
    line: int


@dataclass
class _Config:
    path: Path
    files: dict[str, list[tuple[Path, int]]] = field(
        default_factory=lambda: {"src": [], "ref": [], "sys": [], "docs": []}
    )
    options: dict[str, tuple[str, int]] = field(default_factory=dict)
    sets: list[_SetDefinition] = field(default_factory=list)
    do_metrics: list[str] = field(default_factory=list)


def read_ulc_config(path: Path, name: str | None = None) -> TestbedData:
    """Read the test bed a ULC/IQMT config file describes, with its options and named sets."""
    config = _parse(Path(path))
    data = _read_testbed(config, name)
    data.options = {key: value for key, (value, _) in config.options.items()
                    if key in ("CASE", "LANG")}
    data.options.setdefault("CASE", "all")
    data.options["INPUT"] = _input_format(config, config.files["src"][0][0])
    data.sets = _named_sets(config, data)
    return data


def _parse(path: Path) -> _Config:
    config = _Config(path)
    previous: _SetDefinition | None = None
    for number, line in enumerate(read_lines(path), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if line[0] in " \t" and previous is not None and "=" not in text:
            previous.members += _members(text)
            continue
        previous = _parse_line(config, text, number)
    return config


def _parse_line(config: _Config, text: str, number: int) -> _SetDefinition | None:
    """Record one line; return the set it defines, for continuation lines."""
    if "=" not in text:
        _parse_do_line(config, text, number)
        return None
    key, value = (part.strip() for part in text.split("=", 1))
    if key.lower() in _FILE_KEYS:
        _add_file(config, _FILE_KEYS[key.lower()], value, number)
    elif key.upper() in _OPTION_KEYS:
        _add_option(config, key.upper(), value, number)
    else:
        return _add_set(config, key, value, number)
    return None


def _parse_do_line(config: _Config, text: str, number: int) -> None:
    family, *variants = text.split()
    if family not in _FAMILIES:
        raise InputError(config.path, number,
                         f"expected KEY=value, a set definition or a # comment, got {text!r}")
    for variant in variants:
        if variant not in _FAMILIES[family]:
            raise InputError(config.path, number, f"{family} has no variant {variant!r} "
                             f"(known: {' '.join(_FAMILIES[family])})")
    config.do_metrics += variants or _FAMILIES[family]


def _add_file(config: _Config, kind: str, value: str, number: int) -> None:
    if not value:
        raise InputError(config.path, number, f"{kind}= needs a file name")
    file = Path(value).expanduser()
    if not file.is_absolute():
        file = config.path.parent / file
    if not file.is_file():
        raise InputError(config.path, number, f"file not found: {file}")
    if kind in ("src", "docs") and config.files[kind]:
        raise InputError(config.path, number,
                         f"a second {kind} file (first on line {config.files[kind][0][1]})")
    config.files[kind].append((file, number))


def _add_option(config: _Config, key: str, value: str, number: int) -> None:
    if key in config.options:
        raise InputError(config.path, number,
                         f"{key} given twice (first on line {config.options[key][1]})")
    if key in _CHOICES:
        value = value.lower()
        if value not in _CHOICES[key]:
            raise InputError(config.path, number,
                             f"{key} must be {' or '.join(_CHOICES[key])}, got {value!r}")
    config.options[key] = (value, number)


def _add_set(config: _Config, key: str, value: str, number: int) -> _SetDefinition:
    if not _SET_NAME.match(key):
        raise InputError(config.path, number, f"invalid set name {key!r}")
    for known in config.sets:
        if known.name == key:
            raise InputError(config.path, number,
                             f"set {key!r} defined twice (first on line {known.line})")
    definition = _SetDefinition(key, _members(value), number)
    config.sets.append(definition)
    return definition


def _members(text: str) -> list[str]:
    return [member for member in re.split(r"[\s,]+", text) if member]


def _read_testbed(config: _Config, name: str | None) -> TestbedData:
    if not config.files["src"]:
        raise InputError(config.path, None, "no source file (src=FILE)")
    source = config.files["src"][0][0]
    refs = [file for file, _ in config.files["ref"]]
    systems = [file for file, _ in config.files["sys"]]
    name = name or config.options.get("NAME", ("", 0))[0] or config.path.resolve().parent.name
    if _input_format(config, source) == "xml":
        data = read_sgml(name, source, refs, systems)
    else:
        names = _file_names(config)
        docs = config.files["docs"][0][0] if config.files["docs"] else None
        data = read_plain(name, source, {names[f]: f for f in refs},
                          {names[f]: f for f in systems}, docs)
    _set_languages(config, data)
    data.origin = str(config.path)
    return data


def _input_format(config: _Config, source: Path) -> str:
    """INPUT when given, else xml when the source looks like NIST SGML."""
    if "INPUT" in config.options:
        return config.options["INPUT"][0]
    check_file(source)
    with source.open("rb") as handle:
        head = handle.read(4096)
    return "xml" if _SGML_HINT.search(head) else "raw"


def _file_names(config: _Config) -> dict[Path, str]:
    """Translator names for raw files: the file stem, or the file name where stems clash."""
    entries = config.files["ref"] + config.files["sys"]
    stems = Counter(_base(file) for file, _ in entries)
    names: dict[Path, str] = {}
    used: dict[str, int] = {}
    for file, number in entries:
        name = _base(file) if stems[_base(file)] == 1 else file.name
        if name in used:
            raise InputError(config.path, number, f"the file name {file.name!r} is also on "
                             f"line {used[name]}: translators are named after their files")
        used[name] = number
        names[file] = name
    return names


def _base(file: Path) -> str:
    """``sysA.en.txt`` -> ``sysA``: the name up to the first dot (WMT-style file names)."""
    return file.name.split(".")[0] or file.name


def _set_languages(config: _Config, data: TestbedData) -> None:
    """LANG/TRGLANG and SRCLANG, as Asiya writes them (``ENG``, ``SPA``) or as ISO codes."""
    for key, attribute in (("LANG", "tgt_lang"), ("TRGLANG", "tgt_lang"), ("SRCLANG", "src_lang")):
        if key in config.options:
            value, line = config.options[key]
            set_language(data, attribute, value, config.path, line, option=f"{key}=")


def _named_sets(config: _Config, data: TestbedData) -> list[NamedSet]:
    systems = [t.name for t in data.translators if t.role == "system"]
    refs = [t.name for t in data.translators if t.role == "reference"]
    resolver = _Resolver(systems, refs, len(data.segments))
    sets = [resolver.named_set(config.path, definition) for definition in config.sets]
    if config.do_metrics and all(s.name != "metrics" for s in sets):
        sets.append(NamedSet("metric", "metrics", list(dict.fromkeys(config.do_metrics))))
    return sets


class _Resolver:
    """Decides the kind of a set and resolves positional names (S0, R1...) to real ones."""

    def __init__(self, systems: list[str], refs: list[str], n_segments: int) -> None:
        self.kind_of = {name: "system" for name in systems} | {name: "reference" for name in refs}
        self.alias = {f"S{i}": name for i, name in enumerate(systems)}
        self.alias |= {f"R{i}": name for i, name in enumerate(refs)}
        self.n_segments = n_segments

    def named_set(self, path: Path, definition: _SetDefinition) -> NamedSet:
        name, members = definition.name, definition.members
        if not members:
            raise InputError(path, definition.line, f"set {name!r} has no members")
        if "metrics" in name.lower().split("_"):
            return NamedSet("metric", name, members, definition.line)
        known = any(member in self.kind_of for member in members)
        if not known and all(_SEGMENT_SPEC.match(member) for member in members):
            return NamedSet("segment", name, self._segments(path, definition), definition.line)
        resolved = [member if member in self.kind_of else self.alias.get(member, member)
                    for member in members]
        kinds = {self.kind_of.get(member, "unknown") for member in resolved}
        if kinds == {"unknown"}:
            return NamedSet("metric", name, members, definition.line)
        if len(kinds) > 1:
            raise InputError(path, definition.line, f"set {name!r} mixes "
                             f"{_describe(members, resolved, self.kind_of)}")
        return NamedSet(kinds.pop(), name, list(dict.fromkeys(resolved)), definition.line)

    def _segments(self, path: Path, definition: _SetDefinition) -> list[str]:
        numbers: list[int] = []
        for member in definition.members:
            match = _SEGMENT_SPEC.match(member)
            first = int(match.group(1)) if match else 0
            last = int(match.group(2) or first) if match else 0
            if not 1 <= first <= last <= self.n_segments:
                raise InputError(path, definition.line, f"segment range {member!r} of set "
                                 f"{definition.name!r} must lie within 1..{self.n_segments}")
            numbers.extend(range(first, last + 1))
        return [str(number) for number in dict.fromkeys(numbers)]


def _describe(members: list[str], resolved: list[str], kind_of: dict[str, str]) -> str:
    groups: dict[str, list[str]] = {}
    for member, real in zip(members, resolved, strict=True):
        groups.setdefault(kind_of.get(real, "unknown name"), []).append(member)
    return " and ".join(f"{kind}s ({', '.join(names)})" for kind, names in groups.items())
