"""A task's data: organizers' gold files and bundles checked before they are stored, zip
archives read within bounds, phases of several corpora, and the prepared dataset with
its metrics restored once per process."""
