"""The slice's figures: a campaign's summary and screens, what its judgments and ratings count, the meta-evaluation."""
