# Writes file reads into the database given, as `tia collect` would, in an
# order that is not the sorted one.
import sqlite3, sys

db = sqlite3.connect(sys.argv[1])
c = db.cursor()
for name, commit, complete in [("pytest:t.py::test_a", "0123456789abcdef", 1),
                               ("ctest:crash", "", 0)]:
    c.execute("INSERT INTO tests(name) VALUES(?)", (name,))
    c.execute("INSERT INTO test_file_records(test_id, commit_id, complete) "
              "VALUES(?, ?, ?)", (c.lastrowid, commit, complete))
test = c.execute("SELECT id FROM tests WHERE name = 'pytest:t.py::test_a'").fetchone()[0]
for path, listed in [("data/sub", 1), ("data/b.txt", 0), ("data", 1), ("data/a.txt", 0)]:
    c.execute("INSERT INTO data_paths(path) VALUES(?)", (path,))
    c.execute("INSERT INTO test_reads(test_id, path_id, listed) VALUES(?, ?, ?)",
              (test, c.lastrowid, listed))
db.commit()
