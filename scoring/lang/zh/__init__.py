"""Chinese: spaCy's blank Chinese tokenizer splits text into characters; simplemma has no Chinese."""

from .. import Language

LANGUAGE = Language("zh", "Chinese")
