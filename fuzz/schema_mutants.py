"""Mutants of Kaitai schemas, for the schema campaign (`python -m fuzz schemas`, fuzz/schemas.py).

Each mutation takes a random generator and a seed schema (its text and its YAML tree) and returns
the mutant's bytes, or None where it does not apply (no expression to break in a schema without
one). Three families, by what they break:

* the document (`tree`): keys deleted, renamed (a typo, another Kaitai key) and retyped, values
  swapped between keys, list items duplicated and moved, subtrees spliced from another schema,
  names that reference types, enums, members and fields misspelt, a type that holds itself;
* expressions: tokens dropped and duplicated, brackets left open, unknown names and methods,
  values of the wrong type, operators swapped;
* the YAML text: indentation, tabs, unclosed quotes, a key given twice, anchors and aliases
  (recursive ones and "billion laughs"), lines deleted, duplicated and swapped, stray and
  non-UTF-8 bytes, deep nesting, a cut-off file.

`havoc` stacks two to four document and expression mutations. The same generator state gives
the same mutant: a campaign is reproducible from its seed.
"""

from __future__ import annotations

import copy
import random
import re

import yaml

#: Keys whose values are Kaitai expressions (where they appear in a field, an instance or `valid`).
EXPR_KEYS = {"size", "if", "repeat-expr", "repeat-until", "value", "pos", "switch-on", "io", "eq", "min", "max",
             "expr", "parent", "-lc-default", "-lc-count-of"}
#: Keys of the Kaitai language, to rename one key into another.
KAITAI_KEYS = sorted({"id", "type", "size", "size-eos", "if", "repeat", "repeat-expr", "repeat-until", "process",
                      "valid", "enum", "contents", "encoding", "doc", "doc-ref", "terminator", "consume", "include",
                      "eos-error", "pad-right", "parent", "meta", "seq", "instances", "types", "enums", "params",
                      "value", "pos", "io", "switch-on", "cases", "endian", "bit-endian", "imports", "ks-version",
                      "title", "file-extension", "license", "xref", "ks-opaque-types", "-lc-size-of",
                      "-lc-count-of", "-lc-checksum", "-lc-default", "-lc-unwrap", "-lc-primitive", "-lc-fills-input"})
#: Values of every YAML type, and the edges of integers.
ODD_VALUES = [None, True, False, 0, -1, 1, 255, 256, 2**31, 2**63, 2**64 + 1, -(2**63) - 1, 10**30, 1.5, -0.0,
              float("inf"), "", " ", "garbage", "u4", "s8be", "b3", "strz", "str", "bytes", "f8", "u9", "b0", "b65",
              "_root", "_parent", "_io", "le", "be", "expr", "eos", "until", "UTF-8", "utf-99", "0x", "1 +", "[]",
              [], {}, [1, "a"], {"a": 1}, [[]], {"id": "x"}, [{"id": "x", "type": "u1"}], "é✓", "a\x00b"]
#: Method and attribute names of Kaitai's expression language, and some it does not have.
METHODS = [".size", ".length", ".to_i", ".to_s", ".to_s(\"UTF-8\")", ".reverse", ".first", ".last", ".min", ".max",
           "._sizeof", "._io", "._parent", "._root", ".as<u4>", ".as<str>", ".as<nothing>", ".substring(1, 2)",
           ".to_i(16)", ".eof", ".pos", ".nope", ".nope(1)", ".size(2)", ".as<>", "[0]", "[-1]", "[\"a\"]"]
WRONG_LITERALS = ["\"text\"", "1.5", "true", "false", "[1, 2]", "[]", "[\"a\", 1]", "0x1_0000_0000_0000_0000",
                  "-9999999999999999999999", "sizeof<u4>", "sizeof<nothing>", "bitsizeof<u1>", "_io", "_root",
                  "_parent", "_index", "_", "_sizeof", "nothing::here", "f\"{x}\"", "not 1", "~true", "-\"a\""]
OPERATORS = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "==", "!=", "<", "<=", ">", ">=", "and", "or",
             "?", ":", ".", ",", "::"]
_TOKEN = re.compile(r"\s+|[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*|0[xXbBoO][0-9a-fA-F_]+|[0-9][0-9_.]*"
                    r"|\"(?:[^\"\\]|\\.)*\"|'[^']*'|<<|>>|<=|>=|==|!=|.", re.S)


# libyaml where it is built: the campaign's one process makes every mutant
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class Seed:
    """A schema to mutate: where it lies (`name`, e.g. `gallery:image/png.ksy`), its bytes and,
    parsed once, its YAML tree (None when it is no YAML: only the text mutations apply)."""

    def __init__(self, name: str, text: bytes) -> None:
        self.name, self.text = name, text
        try:
            self.tree = yaml.load(text, Loader=_LOADER)
        except (yaml.YAMLError, RecursionError):
            self.tree = None
        if not _walkable(self.tree):  # (aliases: a tree without end, or of billions of nodes)
            self.tree = None
        self.lines = text.decode("utf-8", "replace").splitlines(keepends=True)


# ---------------------------------------------------------------- the tree


def _slots(tree, path=()):
    """Every (container, key, path) of a tree, its mappings' entries and its lists' items."""
    out = []
    if isinstance(tree, dict):
        for key in list(tree):
            out.append((tree, key, path + (key,)))
            out += _slots(tree[key], path + (key,))
    elif isinstance(tree, list):
        for i, item in enumerate(tree):
            out.append((tree, i, path + (i,)))
            out += _slots(item, path + (i,))
    return out


def _walkable(tree, most: int = 100_000, deepest: int = 200) -> bool:
    """Whether a tree has at most `most` nodes (an alias counted each time) and nests at most
    `deepest` levels: what the mutations walk recursively."""
    todo, count = [(tree, 0)], 0
    while todo:
        node, depth = todo.pop()
        count += 1
        if count > most or depth > deepest:
            return False
        if isinstance(node, dict):
            todo += [(v, depth + 1) for v in node.values()]
        elif isinstance(node, list):
            todo += [(v, depth + 1) for v in node]
    return True


def _dump(tree) -> bytes | None:
    try:
        return yaml.dump(tree, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=4096).encode()
    except (yaml.YAMLError, RecursionError, ValueError, TypeError):
        return None


def _tree_mutation(function):
    """A mutation of a copy of the seed's tree: `function(rng, tree, seed, donor)` changes it in
    place and says whether it did; the mutant is the tree dumped."""

    def mutate(rng: random.Random, seed: Seed, donor: Seed | None) -> bytes | None:
        if not isinstance(seed.tree, dict):
            return None
        tree = copy.deepcopy(seed.tree)
        return _dump(tree) if function(rng, tree, seed, donor) else None

    mutate.__name__, mutate.__doc__ = function.__name__, function.__doc__
    return mutate


def _pick(rng, slots, want=lambda c, k, p: True):
    found = [s for s in slots if want(*s)]
    return rng.choice(found) if found else None


def _typo(rng: random.Random, word: str) -> str:
    """A misspelling of `word`: a letter dropped, doubled, swapped with the next, or changed."""
    if not word:
        return "x"
    i = rng.randrange(len(word))
    how = rng.randrange(4)
    if how == 0 and len(word) > 1:
        return word[:i] + word[i + 1:]
    if how == 1:
        return word[:i] + word[i] + word[i:]
    if how == 2 and i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz_") + word[i + 1:]


def _rename(container: dict, old, new) -> None:
    """Rename a key in place, keeping the order of the mapping."""
    items = [(new if k == old else k, v) for k, v in container.items()]
    container.clear()
    container.update(items)


@_tree_mutation
def key_delete(rng, tree, seed, donor):
    """A key of a mapping, deleted (with its value)."""
    slot = _pick(rng, _slots(tree), lambda c, k, p: isinstance(c, dict))
    if slot is None:
        return False
    del slot[0][slot[1]]
    return True


@_tree_mutation
def key_typo(rng, tree, seed, donor):
    """A key misspelt (did-you-mean)."""
    slot = _pick(rng, _slots(tree), lambda c, k, p: isinstance(c, dict) and isinstance(k, str))
    if slot is None:
        return False
    new = _typo(rng, slot[1])
    if new in slot[0]:
        return False
    _rename(slot[0], slot[1], new)
    return True


@_tree_mutation
def key_other(rng, tree, seed, donor):
    """A key renamed into another key of the language (`size` becomes `repeat-expr`)."""
    slot = _pick(rng, _slots(tree), lambda c, k, p: isinstance(c, dict))
    new = rng.choice(KAITAI_KEYS)
    if slot is None or new in slot[0]:
        return False
    _rename(slot[0], slot[1], new)
    return True


@_tree_mutation
def key_retype(rng, tree, seed, donor):
    """A key that is not a string: a number, a boolean, null, a float."""
    slot = _pick(rng, _slots(tree), lambda c, k, p: isinstance(c, dict))
    new = rng.choice([0, 1, -1, True, False, None, 1.5, 2**64])
    if slot is None or new in slot[0]:
        return False
    _rename(slot[0], slot[1], new)
    return True


@_tree_mutation
def value_retype(rng, tree, seed, donor):
    """A value replaced by one of another YAML type (a list for a string, null, a huge number...)."""
    slot = _pick(rng, _slots(tree))
    if slot is None:
        return False
    slot[0][slot[1]] = copy.deepcopy(rng.choice(ODD_VALUES))
    return True


@_tree_mutation
def value_swap(rng, tree, seed, donor):
    """The values of two keys (or items) swapped, anywhere in the schema."""
    slots = _slots(tree)
    if len(slots) < 2:
        return False
    (c1, k1, p1), (c2, k2, p2) = rng.sample(slots, 2)
    if p1[:len(p2)] == p2 or p2[:len(p1)] == p1:  # one holds the other
        return False
    c1[k1], c2[k2] = c2[k2], c1[k1]
    return True


@_tree_mutation
def item_duplicate(rng, tree, seed, donor):
    """A list item (a seq field, a param) given twice, or a mapping's entry copied under another
    entry's name (a type, an enum member, an instance)."""
    slot = _pick(rng, _slots(tree), lambda c, k, p: isinstance(c, (list, dict)) and len(c) > 0)
    if slot is None:
        return False
    container, key, _ = slot
    if isinstance(container, list):
        container.insert(rng.randrange(len(container) + 1), copy.deepcopy(container[key]))
    else:
        other = rng.choice(list(container))
        container[other] = copy.deepcopy(container[key])
    return True


@_tree_mutation
def item_move(rng, tree, seed, donor):
    """A list item moved elsewhere in its list: a field read before what it names is read."""
    slot = _pick(rng, _slots(tree), lambda c, k, p: isinstance(c, list) and len(c) > 1)
    if slot is None:
        return False
    container, key, _ = slot
    item = container.pop(key)
    container.insert(rng.randrange(len(container) + 1), item)
    return True


@_tree_mutation
def splice(rng, tree, seed, donor):
    """A value replaced by a subtree of another schema (a type, a field, an enum of another format)."""
    if donor is None or not isinstance(donor.tree, dict):
        return False
    slot, given = _pick(rng, _slots(tree)), _pick(rng, _slots(donor.tree))
    if slot is None or given is None:
        return False
    slot[0][slot[1]] = copy.deepcopy(given[0][given[1]])
    return True


def _names_of(tree) -> dict[str, list[str]]:
    """The names a schema declares: types, enums, enum members, fields and instances."""
    names = {"type": [], "enum": [], "member": [], "field": []}
    for container, key, path in _slots(tree):
        if len(path) >= 2 and path[-2] == "types" and isinstance(key, str):
            names["type"].append(key)
        elif len(path) >= 2 and path[-2] == "enums" and isinstance(key, str):
            names["enum"].append(key)
            names["member"] += [str(v.get("id") if isinstance(v, dict) else v) for v in
                                (container[key] or {}).values()] if isinstance(container[key], dict) else []
        elif len(path) >= 2 and path[-2] == "instances" and isinstance(key, str):
            names["field"].append(key)
        elif key == "id" and isinstance(container.get("id") if isinstance(container, dict) else None, str):
            names["field"].append(container["id"])
    return names


@_tree_mutation
def name_typo(rng, tree, seed, donor):
    """A reference misspelt where it is used: a type (`type:`, a case), an enum (`enum:`), an
    enum member or a field in an expression (did-you-mean for names)."""
    names = _names_of(tree)
    declared = [n for kind in names.values() for n in kind if len(n) > 2]
    if not declared:
        return False
    name = rng.choice(declared)
    wrong = _typo(rng, name)
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
    uses = [(c, k) for c, k, p in _slots(tree) if isinstance(c[k], str) and pattern.search(c[k])
            and (not isinstance(c, dict) or k not in ("id", "doc", "doc-ref"))]
    if not uses:
        return False
    container, key = rng.choice(uses)
    container[key] = pattern.sub(wrong, container[key], count=1)
    return True


@_tree_mutation
def self_reference(rng, tree, seed, donor):
    """A type that holds itself (a field of its own type, unconditionally), or a schema that
    imports itself."""
    slots = [s for s in _slots(tree) if isinstance(s[0], dict) and s[1] == "seq" and isinstance(s[0]["seq"], list)
             and s[0]["seq"]]
    if not slots or rng.random() < 0.2:
        meta = tree.setdefault("meta", {})
        if not isinstance(meta, dict) or not isinstance(meta.get("id"), str):
            return False
        meta["imports"] = [*(meta.get("imports") or []), meta["id"]] if isinstance(meta.get("imports", []), list) \
            else [meta["id"]]
        return True
    container, _, path = rng.choice(slots)
    meta = tree.get("meta")
    own = path[-2] if len(path) >= 3 and path[-3] == "types" else meta.get("id") if isinstance(meta, dict) else None
    field = rng.choice(container["seq"])
    if not isinstance(field, dict) or not isinstance(own, str):
        return False
    for key in ("if", "repeat", "size", "size-eos"):
        field.pop(key, None)
    field["type"] = own
    return True


@_tree_mutation
def number_edge(rng, tree, seed, donor):
    """A number at an edge: zero, negative, huge, a float."""
    slot = _pick(rng, _slots(tree), lambda c, k, p: isinstance(c[k], int) and not isinstance(c[k], bool))
    if slot is None:
        return False
    slot[0][slot[1]] = rng.choice([0, -1, -(2**63), 2**64, 10**100, 1.5, 7, 65])
    return True


# ---------------------------------------------------------------- expressions


def _expression_slots(tree):
    """The expressions of a schema: the values of expression keys, `any-of` items, the keys of a
    switch's cases, and the arguments of parametric types."""
    out = []
    for container, key, path in _slots(tree):
        value = container[key]
        if isinstance(container, dict) and key in EXPR_KEYS and isinstance(value, (str, int)) \
                and not isinstance(value, bool):
            out.append((container, key, "value"))
        elif len(path) >= 2 and path[-2] == "any-of":
            out.append((container, key, "value"))
        elif len(path) >= 2 and path[-2] == "cases" and isinstance(key, (str, int)):
            out.append((container, key, "key"))
        elif isinstance(container, dict) and key == "type" and isinstance(value, str) and "(" in value:
            out.append((container, key, "args"))
    return out


def _break_expression(rng: random.Random, text: str) -> str:
    """One way of breaking an expression's text."""
    tokens = [t for t in _TOKEN.findall(text)]
    words = [i for i, t in enumerate(tokens) if t.strip()]
    how = rng.randrange(8)
    if how == 0 and words:  # a token dropped
        del tokens[rng.choice(words)]
    elif how == 1 and words:  # a token duplicated
        i = rng.choice(words)
        tokens.insert(i, tokens[i] + " ")
    elif how == 2:  # a bracket left open, or closed twice
        i = rng.randrange(len(tokens) + 1)
        tokens.insert(i, rng.choice(["(", ")", "[", "]", "<", ">", "\"", "'", "{", "}"]))
    elif how == 3:  # an unknown name
        names = [i for i in words if re.match(r"[A-Za-z_]", tokens[i])]
        i = rng.choice(names) if names else None
        if i is None:
            tokens.append(" + nothing_here")
        else:
            tokens[i] = _typo(rng, tokens[i]) if rng.random() < 0.7 else "no_such_name"
    elif how == 4:  # a method or attribute, known or not, after a name or at the end
        names = [i for i in words if re.match(r"[A-Za-z_]", tokens[i])] or [len(tokens) - 1]
        i = rng.choice(names)
        tokens.insert(i + 1, rng.choice(METHODS))
    elif how == 5 and words:  # a value of the wrong type in place of a token
        tokens[rng.choice(words)] = rng.choice(WRONG_LITERALS)
    elif how == 6 and words:  # an operator in place of a token
        tokens[rng.choice(words)] = f" {rng.choice(OPERATORS)} "
    else:  # the whole expression wrapped in an operator with a wrong-typed side
        return f"({text}) {rng.choice(OPERATORS)} {rng.choice(WRONG_LITERALS)}"
    return "".join(tokens)


@_tree_mutation
def expression(rng, tree, seed, donor):
    """An expression broken: a token dropped or doubled, a bracket unbalanced, an unknown name or
    method, a value of the wrong type, an operator in place of an operand."""
    slots = _expression_slots(tree)
    if not slots:
        return False
    container, key, where = rng.choice(slots)
    if where == "key":
        broken = _break_expression(rng, str(key))
        if broken in container:
            return False
        _rename(container, key, broken)
    elif where == "args":
        head, _, args = container[key].partition("(")
        container[key] = head + "(" + _break_expression(rng, args.rstrip(")")) + ")"
    else:
        container[key] = _break_expression(rng, str(container[key]))
    return True


@_tree_mutation
def expression_retype(rng, tree, seed, donor):
    """An expression replaced by one of the wrong type (text where a size is, a number where a
    condition is, a list, an enum member)."""
    slots = _expression_slots(tree)
    if not slots:
        return False
    container, key, where = rng.choice(slots)
    if where == "key":
        new = rng.choice(WRONG_LITERALS)
        if new in container:
            return False
        _rename(container, key, new)
    else:
        container[key] = rng.choice(WRONG_LITERALS)
    return True


# ---------------------------------------------------------------- the text


def _text_mutation(function):
    def mutate(rng: random.Random, seed: Seed, donor: Seed | None) -> bytes | None:
        lines = list(seed.lines)
        if not lines:
            return None
        out = function(rng, lines, seed)
        return out if isinstance(out, bytes) else ("".join(lines).encode() if out else None)

    mutate.__name__, mutate.__doc__ = function.__name__, function.__doc__
    return mutate


def _content_lines(lines) -> list[int]:
    return [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]


@_text_mutation
def yaml_indent(rng, lines, seed):
    """A line indented one to four columns more or less."""
    i = rng.choice(_content_lines(lines) or [0])
    shift = rng.choice([-4, -2, -1, 1, 2, 4])
    lines[i] = " " * shift + lines[i] if shift > 0 else lines[i][min(-shift, len(lines[i]) - len(lines[i].lstrip())):]
    return True


@_text_mutation
def yaml_tab(rng, lines, seed):
    """A tab in a line's indentation (YAML refuses tabs there), or in its value."""
    i = rng.choice(_content_lines(lines) or [0])
    body = lines[i].lstrip(" ")
    lines[i] = ("\t" + body) if rng.random() < 0.6 else lines[i].replace(": ", ":\t", 1)
    return True


@_text_mutation
def yaml_quote(rng, lines, seed):
    """A quote opened and never closed, or a quoted value cut."""
    i = rng.choice(_content_lines(lines) or [0])
    line = lines[i].rstrip("\n")
    at = rng.randrange(len(line) + 1)
    lines[i] = line[:at] + rng.choice(["\"", "'", "\"\\", "`", "{", "[", "|", ">", "&", "*", "!", "%", "@"]) \
        + line[at:] + "\n"
    return True


@_text_mutation
def yaml_duplicate_key(rng, lines, seed):
    """A `key: value` line given twice in its mapping."""
    keyed = [i for i in _content_lines(lines) if re.match(r"^\s*(- )?[A-Za-z_-][\w-]*:", lines[i])]
    if not keyed:
        return False
    i = rng.choice(keyed)
    lines.insert(i + 1, lines[i].replace("- ", "  ", 1))
    return True


@_text_mutation
def yaml_anchor(rng, lines, seed):
    """Anchors and aliases: a value aliased elsewhere, an alias to an unknown anchor, an anchor
    that holds itself, or "billion laughs" (aliases of aliases, nine levels deep)."""
    keyed = [i for i in _content_lines(lines) if re.match(r"^\s*(- )?[A-Za-z_-][\w-]*:\s*\S", lines[i])]
    how = rng.randrange(4)
    if how == 3 or not keyed:  # vendor keys (`-lol0`), which Kaitai ignores: only the YAML reader meets them
        lines[0:0] = ["-lol0: &l0 [lol]\n"] + [f"-lol{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]\n"
                                              for n in range(1, 10)]
        return True
    i, j = rng.choice(keyed), rng.choice(keyed)
    key, _, value = lines[i].partition(":")
    if how == 0:  # a value aliased from another key
        lines[i] = f"{key}: &anchor{i}{value}"
        key_j = lines[j].partition(":")[0]
        lines[j] = f"{key_j}: *anchor{i}\n"
    elif how == 1:  # an alias to nothing
        lines[i] = f"{key}: *nowhere\n"
    else:  # an anchor holding itself
        lines[i] = f"{key}: &self [*self]\n"
    return True


@_text_mutation
def yaml_lines(rng, lines, seed):
    """A line deleted, duplicated, or two lines swapped."""
    how = rng.randrange(3)
    i = rng.randrange(len(lines))
    if how == 0:
        del lines[i]
    elif how == 1:
        lines.insert(i, lines[i])
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return True


@_text_mutation
def yaml_bytes(rng, lines, seed):
    """Stray bytes: a NUL, a control character, invalid UTF-8, a byte-order mark, a surrogate."""
    data = bytearray("".join(lines).encode())
    at = rng.randrange(len(data) + 1)
    data[at:at] = rng.choice([b"\x00", b"\x07", b"\xff", b"\xc3", b"\xef\xbb\xbf", b"\xed\xa0\x80", b"\r", b"\x1b[0m",
                              b"\xe2\x80\xa8", b"\\", b"\x85"])
    return bytes(data)


@_text_mutation
def yaml_cut(rng, lines, seed):
    """The file cut short, anywhere."""
    data = "".join(lines).encode()
    return data[:rng.randrange(len(data) + 1)]


@_text_mutation
def yaml_deep(rng, lines, seed):
    """A value nested thousands of levels deep (flow lists or mappings)."""
    keyed = [i for i in _content_lines(lines) if re.match(r"^\s*(- )?[A-Za-z_-][\w-]*:\s*\S", lines[i])]
    if not keyed:
        return False
    i = rng.choice(keyed)
    depth = rng.choice([100, 900, 1000, 5000, 20000])
    opener, closer = rng.choice([("[", "]"), ("{a: ", "}")])
    key = lines[i].partition(":")[0]
    lines[i] = f"{key}: {opener * depth}1{closer * depth}\n"
    return True


@_text_mutation
def yaml_documents(rng, lines, seed):
    """More than one YAML document, or none: `---` and `...` inserted, or an empty file."""
    how = rng.randrange(3)
    if how == 0:
        lines.insert(rng.randrange(len(lines) + 1), "---\n")
    elif how == 1:
        lines.insert(rng.randrange(len(lines) + 1), "...\n")
    else:
        return rng.choice([b"", b"\n", b"# nothing\n", b"null\n", b"[]\n", b"42\n", b"meta:\n", b"meta: 1\n"])
    return True


# ---------------------------------------------------------------- all of them

TREE = {f.__name__: f for f in (key_delete, key_typo, key_other, key_retype, value_retype, value_swap,
                                item_duplicate, item_move, splice, name_typo, self_reference, number_edge,
                                expression, expression_retype)}
TEXT = {f.__name__: f for f in (yaml_indent, yaml_tab, yaml_quote, yaml_duplicate_key, yaml_anchor, yaml_lines,
                                yaml_bytes, yaml_cut, yaml_deep, yaml_documents)}


def havoc(rng: random.Random, seed: Seed, donor: Seed | None) -> bytes | None:
    """Two to four document and expression mutations, one after the other."""
    current = seed
    for _ in range(rng.randint(2, 4)):
        out = rng.choice(list(TREE.values()))(rng, current, donor)
        if out is not None:
            current = Seed(seed.name, out)
    return current.text if current is not seed else None


MUTATIONS = {**TREE, **TEXT, "havoc": havoc}
#: How often each is drawn: the document and its expressions, where the passes are reached, most.
WEIGHTS = {**{name: 3 for name in TREE}, "expression": 10, "expression_retype": 5, "name_typo": 5,
           **{name: 1 for name in TEXT}, "havoc": 6}


def mutate(rng: random.Random, seed: Seed, donor: Seed | None) -> tuple[str, bytes]:
    """A mutant of `seed`: the mutation's name and the bytes (the seed itself, `seed`, where none
    of twenty drawn applies)."""
    names = list(MUTATIONS)
    weights = [WEIGHTS[n] for n in names]
    for _ in range(20):
        name = rng.choices(names, weights)[0]
        out = MUTATIONS[name](rng, seed, donor)
        if out is not None and out != seed.text:
            return name, out
    return "seed", seed.text
