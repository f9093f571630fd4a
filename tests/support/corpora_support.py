"""Small hand-written corpora in the 12 MultiGEC-2025 languages and Chinese, and the
helpers the corpus tests share: a task of several corpora, a zip of corpus files."""

from __future__ import annotations

import io
import zipfile

from leaderboard.models import SharedTask
from leaderboard.services.data.corpora import CorpusGold
from leaderboard.services.data.datasets import prepare_stored
from leaderboard.services.data.gold import check_gold
from leaderboard.services.hosting.host import add_corpus_phase, store_corpora

# language: (source lines, reference lines); line 1 has an error, line 2 none. Tokenized.
LANGUAGES = {
    "cs": (
        ["Včera jsem se učil matematyku .", "To je dobrý nápad ."],
        ["Včera jsem se učil matematiku .", "To je dobrý nápad ."],
    ),
    "en": (
        ["She go to school every day .", "It is a good idea ."],
        ["She goes to school every day .", "It is a good idea ."],
    ),
    "et": (
        ["Mina elan Tallinas juba kaks aastat .", "See on hea mõte ."],
        ["Mina elan Tallinnas juba kaks aastat .", "See on hea mõte ."],
    ),
    "de": (
        ["Ich habe gestern ein Buch gelest .", "Das ist eine gute Idee ."],
        ["Ich habe gestern ein Buch gelesen .", "Das ist eine gute Idee ."],
    ),
    "el": (
        ["Χθες πήγα στο σχολίο .", "Αυτή είναι μια καλή ιδέα ."],
        ["Χθες πήγα στο σχολείο .", "Αυτή είναι μια καλή ιδέα ."],
    ),
    "is": (
        ["Ég fór í skólan í gær .", "Þetta er góð hugmynd ."],
        ["Ég fór í skólann í gær .", "Þetta er góð hugmynd ."],
    ),
    "it": (
        ["Ieri sono andato al scuola .", "È una buona idea ."],
        ["Ieri sono andato a scuola .", "È una buona idea ."],
    ),
    "lv": (["Es vakar mācijos skolā .", "Tā ir laba ideja ."], ["Es vakar mācījos skolā .", "Tā ir laba ideja ."]),
    "ru": (["Я вчера ходил в школа .", "Это хорошая идея ."], ["Я вчера ходил в школу .", "Это хорошая идея ."]),
    "sl": (
        ["Včeraj sem se učil matematko .", "To je dobra ideja ."],
        ["Včeraj sem se učil matematiko .", "To je dobra ideja ."],
    ),
    "sv": (
        ["Jag har bott i sverige i två år .", "Det är en bra idé ."],
        ["Jag har bott i Sverige i två år .", "Det är en bra idé ."],
    ),
    "uk": (["Я вчора ходив до школа .", "Це гарна ідея ."], ["Я вчора ходив до школи .", "Це гарна ідея ."]),
    "zh": (["他 很 高兴 的 说 。", "这 是 个 好 主意 。"], ["他 很 高兴 地 说 。", "这 是 个 好 主意 。"]),
}


def text(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def corpus(
    name: str, lang: str, source: list[str], *references: list[str], pipeline: str = "", max_tokens: int = 5000
) -> CorpusGold:
    gold = check_gold(
        source=("source.txt", text(source).encode()),
        references=[(f"ref{k}.txt", text(r).encode()) for k, r in enumerate(references, 1)],
        max_tokens=max_tokens,
    )
    return CorpusGold(name, lang, pipeline, max_tokens, gold)


def language_corpus(lang: str) -> CorpusGold:
    source, reference = LANGUAGES[lang]
    return corpus(f"{lang}-test", lang, source, reference)


def corpora_task(slug: str, corpora: list[CorpusGold], *, metrics=("errant", "gleu", "gotoscorer"), **phase_fields):
    """A ready task with one phase ``dev`` holding ``corpora``, prepared inline."""
    task = SharedTask.objects.create(slug=slug, title=slug, metrics=list(metrics))
    datasets = store_corpora(task, corpora, prepare=lambda dataset: prepare_stored(dataset))
    return add_corpus_phase(task, datasets, kind="dev", **phase_fields)


def zipped(files: dict[str, str | bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content.encode() if isinstance(content, str) else content)
    return out.getvalue()
