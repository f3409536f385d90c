import sys

from logcodec.cli import main

sys.exit(main())
