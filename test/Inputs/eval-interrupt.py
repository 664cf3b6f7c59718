"""Interrupts a tia eval command as Ctrl-C would, while its build runs.

  eval-interrupt.py TMPDIR MARKER [--term] -- tia eval ... --build 'touch MARKER; sleep 30'

Starts the command in a process group of its own with TMPDIR set, waits
until the build command has created MARKER, sends SIGINT to the group and
prints the exit code and what is left in TMPDIR. With --term: sends SIGTERM
to tia alone (as `kill PID` does), and lists TMPDIR 3 seconds after tia
ended, so that a build left running has time to write into it.
"""
import os
import signal
import subprocess
import sys
import time

tmp, marker = sys.argv[1], sys.argv[2]
command = sys.argv[sys.argv.index("--") + 1:]
env = dict(os.environ, TMPDIR=tmp)
proc = subprocess.Popen(command, env=env, start_new_session=True,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.time() + 300
while not os.path.exists(marker):
    if proc.poll() is not None or time.time() > deadline:
        print("the build never started; exit", proc.poll())
        sys.exit(1)
    time.sleep(0.1)
term = "--term" in sys.argv[:sys.argv.index("--")]
if term:
    os.kill(proc.pid, signal.SIGTERM)
else:
    os.killpg(proc.pid, signal.SIGINT)
rc = proc.wait(timeout=60)
if term:
    time.sleep(3)
print("exit", rc)
print("left in TMPDIR:", sorted(os.listdir(tmp)))
