"""Run a panel's code() snippet (read from stdin) in this fresh interpreter and print every number it made.

Used by tests/panels/test_registry.py: the numbers of the snippet's variables (numpy arrays, pandas frames,
scalars, the explorer's result objects) and of what it drew on its matplotlib Figures (lines, bars, images,
points, segments) are printed as JSON after the marker ``@@NUMBERS@@`` (the snippet may print too).
"""
import json, sys, numbers
import numpy as np, pandas as pd
code = sys.stdin.read()
ns = {}
exec(compile(code, "<code()>", "exec"), ns)
found = []
def add(x):
    try:
        arr = np.asarray(x, dtype=float).ravel()
    except Exception:
        return
    arr = arr[np.isfinite(arr)]
    found.extend(arr[:20000].tolist())
def walk(obj, depth=0):
    if depth > 3: return
    if isinstance(obj, bool): return
    if isinstance(obj, numbers.Number): add([obj]); return
    if isinstance(obj, np.ndarray): add(obj); return
    if isinstance(obj, pd.DataFrame):
        for c in obj.columns:
            try: add(obj[c].to_numpy())
            except Exception: pass
        try: add(obj.index.to_numpy())
        except Exception: pass
        return
    if isinstance(obj, pd.Series): add(obj.to_numpy()); add(obj.index.to_numpy()) if obj.index.dtype.kind in "if" else None; return
    if isinstance(obj, (list, tuple)):
        for o in obj[:5000]: walk(o, depth+1)
        return
    if isinstance(obj, dict):
        for o in list(obj.values())[:5000]: walk(o, depth+1)
        return
    from matplotlib.figure import Figure
    if isinstance(obj, Figure):
        from matplotlib.lines import Line2D
        from matplotlib.patches import Rectangle
        from matplotlib.image import AxesImage
        from matplotlib.collections import Collection
        for a in obj.findobj():
            if isinstance(a, Line2D): add(a.get_xydata())
            elif isinstance(a, Rectangle): add([a.get_height(), a.get_width(), a.get_y(), a.get_x(), a.get_x() + a.get_width() / 2])
            elif isinstance(a, AxesImage): add(a.get_array())
            elif isinstance(a, Collection):
                add(a.get_offsets())
                if hasattr(a, "get_segments"):
                    for seg in a.get_segments()[:20000]: add(seg)
        return
    if hasattr(obj, "__dataclass_fields__") or (hasattr(obj, "__dict__") and type(obj).__module__.startswith("explorer")):
        for o in list(vars(obj).values()): walk(o, depth+1)
for name, value in list(ns.items()):
    if name.startswith("__") or callable(value) and not hasattr(value, "__dataclass_fields__"): continue
    if type(value).__name__ == "module": continue
    walk(value)
print("\n@@NUMBERS@@" + json.dumps(found[:200000]))
