import os

import lit.formats

config.name = "demo"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
# Outputs go to the build, as an out-of-tree lit.site.cfg.py puts them.
config.test_exec_root = os.path.join(lit_config.params["build"], "suite")
config.substitutions.append(("%greet", os.path.join(lit_config.params["build"], "greet")))
