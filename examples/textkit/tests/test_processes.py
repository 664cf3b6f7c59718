"""Tests that run textkit's code in other processes and pickle its objects.

tia collect must leave them passing, and record as their coverage what
their child processes run.
"""
import multiprocessing
import os
import pickle
import subprocess
import sys

from textkit.words import Counter, word_count

SRC = os.path.join(os.path.dirname(os.path.dirname(__file__)), "src")


def count_words(text):
    return word_count(text)


def test_counter_round_trips_through_pickle():
    counter = Counter()
    counter.add("a b a")
    copy = pickle.loads(pickle.dumps(counter))
    assert getattr(copy, "counts") == {"a": 2, "b": 1}


def test_spawned_worker_counts_words():
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.map(count_words, ["one two", "three"]) == [2, 1]


def test_script_slugifies_in_a_child_process():
    script = "from textkit import slugify; print(slugify('Hello There'))"
    env = dict(os.environ, PYTHONPATH=SRC)
    out = subprocess.run([sys.executable, "-c", script], env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "hello-there"
