# tia's startup hook, compiled into tia and written as sitecustomize.py to
# the folder `tia collect --pytest` puts first on PYTHONPATH: in a Python
# process a test starts, it starts tia's tracing (tia_child.py), then runs
# the sitecustomize this one hides, if any, as the interpreter would have.

import os
import sys


def _tia_trace():
    if not os.environ.get("TIA_PYTEST_TRACE"):
        return
    try:
        import tia_child
        tia_child.start()
    except Exception:
        # Never break the child: its coverage goes missing instead, which
        # the evidence cannot tell (the test's own run still counts).
        pass


def _tia_chain():
    import importlib.machinery
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["sitecustomize"] = module
    spec.loader.exec_module(module)


_tia_trace()
_tia_chain()
