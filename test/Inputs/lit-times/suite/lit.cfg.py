import os
import lit.formats
config.name = "timed"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(lit_config.params["build"], "suite")
config.substitutions.append(("%log", lit_config.params["log"]))
