#!/usr/bin/env python3
"""Validates a JSON document against a JSON schema with Debian's
python3-jsonschema; prints "valid" or every error with its path.

    validate-json.py SCHEMA DOCUMENT
"""
import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1]))
    document = json.load(open(sys.argv[2]))
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
    for e in errors:
        print("invalid: /" + "/".join(str(p) for p in e.path) + ": " + e.message)
    if errors:
        sys.exit(1)
    print("valid")


if __name__ == "__main__":
    main()
