import os

import lit.formats

# A '.' in the suite's name and in a folder's: lit's xunit report writes
# them as '-' and '_'.
config.name = "my.suite"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(lit_config.params["build"], "suite")
