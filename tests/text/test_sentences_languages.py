"""The one sentence splitter in the scripts the subjects write: capitals of any script start
a sentence, scripts without case and the wide full stops of Chinese and Japanese end one,
and a scale abbreviation after a figure does not."""

from __future__ import annotations

import pytest

from reliability_core.text.sentences import sentence_around, split_sentences


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Omsætningen steg. Ørsted venter vækst.", ["Omsætningen steg.", "Ørsted venter vækst."]),
        ("Выручка выросла. Это рекорд.", ["Выручка выросла.", "Это рекорд."]),
        ("Τα έσοδα αυξήθηκαν. Άρα καλά.", ["Τα έσοδα αυξήθηκαν.", "Άρα καλά."]),
        ("売上は増えた。利益も増えた！", ["売上は増えた。", "利益も増えた！"]),
        ("营收增长了。我们很满意？是的。", ["营收增长了。", "我们很满意？", "是的。"]),
        ("ارتفعت الإيرادات. وقال المدير ذلك.", ["ارتفعت الإيرادات.", "وقال المدير ذلك."]),
        ("ההכנסות עלו. זה שיא.", ["ההכנסות עלו.", "זה שיא."]),
        ("Wir erwarten 5 Mrd. Euro Umsatz. Das ist viel.", ["Wir erwarten 5 Mrd. Euro Umsatz.", "Das ist viel."]),
        ("Costs fell, e.g. the fuel bill. Good.", ["Costs fell, e.g. the fuel bill.", "Good."]),
        ("It installed 2.1 GW. Analysts agreed.", ["It installed 2.1 GW.", "Analysts agreed."]),
    ],
)
def test_sentences_in_every_script(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences
    parts = split_sentences(text, keep_breaks=True)
    assert "".join(parts) == text


def test_the_sentence_around_a_quote_in_running_japanese() -> None:
    text = "売上は増えた。社長は病院に入院した。配当は据え置き。"
    start = text.index("病院")
    assert sentence_around(text, start, start + 2) == "社長は病院に入院した。"
