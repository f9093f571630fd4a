import sys

from .cli.main import batch_gc, main

batch_gc()
sys.exit(main())
