import sys

if sys.argv[1:2] == ["files"]:
    from .files import main

    sys.exit(main(sys.argv[2:]))

from .runner import main

sys.exit(main())
