import sys

from .cli import batch_gc, main

batch_gc()
sys.exit(main())
