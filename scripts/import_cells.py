"""Keep imports in cells of their own, as nbdev's docs ask (`nbs/explanations/docs.ipynb`): the docs build executes
every cell that contains an import, so a cell that imports and then tests would run its test there too.

    python scripts/import_cells.py --check   # list cells that mix imports with other code (exit 1 if any)
    python scripts/import_cells.py --fix     # move each such cell's top-level imports into a cell just above it

An import nested in a `with`, `if` or loop is hoisted too; one inside a function is listed for a hand edit, never moved."""
import argparse, ast, json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOW = ("#|export", "#| export", "#|exporti", "#| exporti", "#|exports", "#| exports", "#|exec_doc", "#| exec_doc")

def _directives(src:str)->tuple[list, list]:
    "(directive lines, the rest) of a cell's source lines."
    lines = src.split("\n"); k = 0
    while k < len(lines) and lines[k].lstrip().startswith("#|"): k += 1
    return lines[:k], lines[k:]

def mixed(src:str)->str|None:
    "'top' if the cell has top-level imports and other code, 'nested' if its imports are only nested, else None."
    dirs, body = _directives(src)
    if "nbdev_export()" in src: return None          # nbdev never runs the export cell in its docs pass
    if any(d.replace(" ", "").startswith(("#|export", "#|exec_doc")) for d in dirs): return None
    if any(d.replace(" ", "") in ("#|eval:false",) for d in dirs): return None
    try: tree = ast.parse("\n".join(body))
    except SyntaxError: return None        # IPython magics: leave alone
    imp = (ast.Import, ast.ImportFrom)
    if not any(isinstance(n, imp) for n in ast.walk(tree)): return None
    top = [n for n in tree.body if isinstance(n, imp)]
    if top and len(top) == len(tree.body): return None
    return "top" if top and not any(isinstance(n, imp) for s in tree.body if not isinstance(s, imp) for n in ast.walk(s)) else "nested"

def _hoistable(tree)->list:
    "Import statements of `tree` outside any function or class, top-level or nested in with/if/for/try blocks."
    out, todo = [], list(tree.body)
    while todo:
        n = todo.pop(0)
        if isinstance(n, (ast.Import, ast.ImportFrom)): out.append(n)
        elif not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            todo += [c for c in ast.iter_child_nodes(n) if isinstance(c, ast.stmt)]
    return sorted(out, key=lambda n: n.lineno)

def split(src:str)->tuple[str, str]|None:
    "(imports cell, rest cell), both keeping the cell's directives; None if moving the imports would break the cell."
    dirs, body = _directives(src)
    text = "\n".join(body); tree = ast.parse(text); lines = text.split("\n")
    imp_lines, keep = [], set()
    for n in reversed(_hoistable(tree)):                  # from the end, so earlier offsets stay valid
        if n.lineno == n.end_lineno:                      # `import x; y = 1` on one line: cut the statement alone
            l = lines[n.lineno - 1]
            imp_lines.insert(0, l[n.col_offset:n.end_col_offset])
            cut = (l[:n.col_offset] + l[n.end_col_offset:].lstrip().removeprefix(";").lstrip()).rstrip()
            lines[n.lineno - 1] = cut.rstrip(";").rstrip() if cut.strip() else ""
            if not lines[n.lineno - 1].strip(): keep.add(n.lineno - 1)
        else:
            imp_lines[:0] = [l.strip() for l in lines[n.lineno - 1:n.end_lineno]]; keep.update(range(n.lineno - 1, n.end_lineno))
    rest = [l for i, l in enumerate(lines) if i not in keep]
    while rest and not rest[0].strip(): rest.pop(0)
    try: left = ast.parse("\n".join(rest))
    except SyntaxError: return None                        # an emptied block: a hand edit
    if any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(left)): return None   # imports left in functions
    return "\n".join(dirs + list(dict.fromkeys(imp_lines))), "\n".join(dirs + rest)

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--check", action="store_true"); g.add_argument("--fix", action="store_true")
    ap.add_argument("--skip", nargs="*", default=[], metavar="NB", help="notebooks to leave alone (paths under nbs/)")
    a = ap.parse_args(argv)
    bad, skip = [], {(ROOT / s).resolve() for s in a.skip}
    for nb in sorted((ROOT / "nbs").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts or nb.resolve() in skip: continue
        d = json.loads(nb.read_text()); cells, changed = [], False
        for c in d["cells"]:
            src = "".join(c["source"]) if c["cell_type"] == "code" else ""
            kind = mixed(src) if src else None
            if kind and a.fix and (parts := split(src)):
                imports, rest = parts
                ci = dict(c, source=imports.splitlines(keepends=True), outputs=[], id=(c.get("id") or "x") + "i")
                cells += [ci, dict(c, source=rest.splitlines(keepends=True))]; changed = True; continue
            if kind: bad.append(f"{nb.relative_to(ROOT)} cell {c.get('id')}: {kind} imports mixed with other code")
            cells.append(c)
        if changed:
            d["cells"] = cells; nb.write_text(json.dumps(d, indent=1, ensure_ascii=False) + "\n")
    print("\n".join(bad) if bad else "import cells: every import stands in a cell of its own")
    sys.exit(1 if bad else 0)

if __name__ == "__main__": main()
