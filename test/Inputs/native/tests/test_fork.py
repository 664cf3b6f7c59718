import multiprocessing
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "build"))

import _geom  # noqa: E402


def work(queue):
    queue.put(_geom.perimeter(1, 2))


def test_fork_child():
    # The child ends through os._exit, which skips the runtime's own write.
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=work, args=(queue,))
    child.start()
    child.join()
    assert queue.get() == 6
