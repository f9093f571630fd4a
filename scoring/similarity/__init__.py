"""BERTScore F1 for CLEME2.0's similarity weights: the scorer, its ONNX export, the
encoders that run it and the WordPiece tokenizer that feeds it without transformers."""
