# A lit without --skip-test-time-recording (before lit 17).
import subprocess
import sys

lit = "@LIT@".split()
args = sys.argv[1:]
if "--skip-test-time-recording" in args:
    sys.exit("lit.py: error: unrecognized arguments: --skip-test-time-recording")
if "--help" in args:
    help = subprocess.run(lit + args, capture_output=True, text=True).stdout
    print(help.replace("--skip-test-time-recording", ""))
    sys.exit(0)
sys.exit(subprocess.run(lit + args).returncode)
