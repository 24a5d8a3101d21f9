"""`python -m pt2lint ...` and the `pt2lint` console script: run the bundled binary."""

import os
import sys


def main() -> None:
    from ._binary import find_pt2lint_bin
    from ._errors import BinaryNotFoundError

    try:
        binary = find_pt2lint_bin()
    except BinaryNotFoundError as error:
        print(f"pt2lint: error: {error}", file=sys.stderr)
        sys.exit(2)
    sys.stdout.flush()
    # exec: the binary's exit code, signals and stdin are the caller's, with no Python between.
    os.execv(binary, [binary, *sys.argv[1:]])


if __name__ == "__main__":
    main()
