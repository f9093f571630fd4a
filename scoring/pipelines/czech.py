"""Czech universal POS from word lists and simplemma's Czech dictionary (MIT), with no
model: PyPI has no openly licensed Czech tagger or lexicon (MorfFlex, MorphoDiTa's
models and spaCy's ``cs_core_news_sm`` are non-commercial; ``majka`` ships no data).

A word is read alone, in this order:

1. its shape: punctuation PUNCT, digits NUM;
2. the closed classes, written out below (prepositions, conjunctions, particles,
   pronouns, determiners, numerals, frequent adverbs, the forms of *být*), by the
   word or by its simplemma lemma (``mě`` -> ``já``, ``kterého`` -> ``který``);
3. for a word simplemma's dictionary knows, the open class its lemma proves in that
   dictionary: VERB when the lemma looks like an infinitive and the dictionary has
   its past participle (``dělat``: ``dělal``; the noun ``plat`` has no ``plal``);
   ADJ for a lemma in ``-ý``, or in ``-í`` with a genitive ``-ího`` (``jarní``, not
   ``nádraží``); ADV for a word that is its own lemma and an adverb of a known
   adjective (``krásně``: ``krásný``); else NOUN (PROPN when capitalised with a
   capitalised lemma);
4. else ``X`` (a misspelt or unknown word), which the type rules read as untagged.
"""

from __future__ import annotations

import functools

from .shapes import shape_upos

RULES_VERSION = "1"  # in the signature: change it with any rule or list below

WORD_CLASSES = {
    "ADP": "v ve na do z ze s k ke ku o u po pro za před přede přes při bez od ode pod pode nad nade mezi "
    "kolem okolo podle dle proti oproti naproti během kvůli díky vedle kromě mimo skrz skrze vůči "
    "ohledně pomocí včetně uprostřed místo",
    "CCONJ": "a i ale nebo anebo ani či avšak však jenže ba neboť nýbrž",
    "SCONJ": "že aby abych abys abychom abyste protože když jestli jestliže pokud než kdyby kdybych kdybys "
    "kdybychom kdybyste aniž ačkoli ačkoliv přestože zda zdali jakmile dokud jelikož poněvadž jako",
    "PART": "ano ne ať kéž nechť no",
    "INTJ": "jo jj ach ó hm haha ahoj fuj",
    "ADV": "tady tam kde kdy kam odkud proč jak tak teď nyní dnes zítra včera už ještě také taky též velmi "
    "moc velice málo vždy vždycky nikdy někdy často potom pak hned zase zas znovu zde stále pořád spíš "
    "spíše snad asi prý jen jenom pouze právě dokonce opravdu skoro téměř takto tedy trochu trošku "
    "více víc méně míň nejvíc nejvíce dost příliš brzy pozdě dříve dřív později dál dále doma venku "
    "nahoře dole vůbec hlavně především zrovna ihned možná třeba naopak celkem rovněž tolik kolik "
    "nějak nikde někde všude odtud proto sice prostě vlastně jinak hodně",
}
LEMMA_CLASSES = {
    "PRON": "já ty on ona ono my vy oni ony se kdo co nic nikdo něco někdo cokoli kdokoli cosi kdosi jenž",
    "DET": "ten tento tenhle tamten onen můj tvůj náš váš svůj její jejich který jaký každý všechen "
    "žádný nějaký některý takový čí sám týž tentýž veškerý jakýsi kterýsi",
    "VERB": "být mít moci říci",
    "NUM": "jeden dva tři čtyři pět šest sedm osm devět deset jedenáct dvanáct třináct čtrnáct patnáct "
    "dvacet třicet čtyřicet padesát sto tisíc milion",
}
WORD_UPOS = {word: upos for upos, words in WORD_CLASSES.items() for word in words.split()}
LEMMA_UPOS = {lemma: upos for upos, lemmas in LEMMA_CLASSES.items() for lemma in lemmas.split()}
LEMMA_UPOS.update({lemma: "ADV" for lemma in WORD_CLASSES["ADV"].split()})
INFINITIVE_ENDINGS = ("t", "ci")
# An adverb's ending -> its adjective's (krásně: krásný, dobře: dobrý, česky: český).
ADVERB_TO_ADJECTIVE = (
    ("sky", "ský"),
    ("cky", "cký"),
    ("ky", "ký"),
    ("ně", "ný"),
    ("tě", "tý"),
    ("dě", "dý"),
    ("ře", "rý"),
    ("le", "lý"),
    ("ce", "ký"),
    ("ze", "hý"),
    ("še", "chý"),
    ("mě", "mý"),
    ("vě", "vý"),
    ("bě", "bý"),
    ("pě", "pý"),
)


class CzechTagger:
    """word -> UPOS from the lists above and simplemma's Czech dictionary."""

    def __init__(self):
        import simplemma

        self.known = functools.lru_cache(maxsize=1 << 18)(lambda word: simplemma.is_known(word, lang="cs"))
        self.lemma = functools.lru_cache(maxsize=1 << 18)(lambda word: simplemma.lemmatize(word, lang="cs"))
        self.is_verb = functools.lru_cache(maxsize=1 << 16)(self._is_verb)
        self.upos = functools.lru_cache(maxsize=1 << 18)(self._upos)

    def _upos(self, word: str) -> str:
        shape = shape_upos(word)
        if shape != "X":
            return shape
        lower = word.lower()
        if lower in WORD_UPOS:
            return WORD_UPOS[lower]
        known = self.known(word) or self.known(lower)
        lemma = self.lemma(word if self.known(word) else lower)
        if lemma.lower() in LEMMA_UPOS:
            return LEMMA_UPOS[lemma.lower()]
        if not known:
            return "X"
        return self.open_class(word, lemma)

    def open_class(self, word: str, lemma: str) -> str:
        if lemma.endswith(INFINITIVE_ENDINGS) and self.is_verb(lemma):
            return "VERB"
        if lemma.endswith("ý") or (lemma.endswith("í") and self.is_form_of(lemma[:-1] + "ího", lemma)):
            return "ADJ"
        if word.lower() == lemma.lower() and self.is_adverb(lemma.lower()):
            return "ADV"
        return "PROPN" if word[:1].isupper() and lemma[:1].isupper() else "NOUN"

    def _is_verb(self, lemma: str) -> bool:
        """An infinitive whose past participle the dictionary has (``-l`` after the stem)."""
        if lemma.endswith(("ci", "ct", "jít")):
            return True
        stems = {
            lemma[:-1],
            lemma[:-2],
            lemma[:-2] + "i",
            lemma[:-2] + "a",
            lemma[:-2] + "e",
            lemma[:-2] + "ě",
            lemma[:-2] + "y",
            lemma[:-4] + "u",
            lemma[:-4],
        }
        return any(self.is_form_of(stem + "l", lemma) for stem in stems if stem)

    def is_adverb(self, word: str) -> bool:
        for ending, adjective in ADVERB_TO_ADJECTIVE:
            if word.endswith(ending) and len(word) > len(ending) + 1:
                candidate = word[: -len(ending)] + adjective
                return self.known(candidate) and self.lemma(candidate) == candidate
        return False

    def is_form_of(self, form: str, lemma: str) -> bool:
        return self.known(form) and self.lemma(form) == lemma
