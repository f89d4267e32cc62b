"""Many runs at once: a suite of cases run by N workers, spread over browser endpoints, with a batch
journal, JUnit XML and an index page (docs/architecture.md, "Batches")."""
