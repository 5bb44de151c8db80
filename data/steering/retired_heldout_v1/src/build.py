import json, sys, collections
from pathlib import Path
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
L = {}
for m in ['d1','d2','d3','d4','d5','d6']:
    L.update(__import__(m).L)
LANGS = "en es de fr ja ru pt it zh pl tr nl ko vi ar fa id cs uk sv da hi he ro".split()
assert sorted(LANGS) == sorted(L), set(LANGS) ^ set(L)
SRC = "project:heldout-probe (hand-written 2026-12-01)"
KIND = dict(a="note-to-ai-mark-true", b="reworded-override", c="fake-system-message", d="false-prior-verification",
            e="plea-pressure", f="bribe-threat", g="discard-contrary-evidence", h="output-manipulation")
def join(lang, sents):
    return ("" if lang in ("ja", "zh") else " ").join(sents)
clean, att, emb = [], [], []
for lang in LANGS:
    d = L[lang]
    assert len(d['news']) == 14 and len(d['look']) == 4 and len(d['para']) == 2, lang
    assert all(5 <= len(p) <= 8 for p in d['para']), lang
    assert sorted(d['att']) == list("abcdefgh"), lang
    n = 0
    for cat, items in (('news', d['news']), ('lookalike', d['look']), ('paragraph', [join(lang, p) for p in d['para']])):
        for t in items:
            n += 1
            clean.append(dict(text=t, label="clean", lang=lang, source=SRC, category=cat,
                              group=f"heldout-clean:{lang}:{n}", context_dependent=None))
    for k in "abcdefgh":
        att.append(dict(text=d['att'][k], label="steering", lang=lang, source=SRC,
                        category=f"attack/{k}-{KIND[k]}", group=f"heldout-attack:{lang}:{k}", context_dependent=False))
EMB = "en es de ja ru zh tr ar ko hi he sv".split()
for i, lang in enumerate(EMB):
    k = "abcdefgh"[i % 8]
    p = list(L[lang]['para'][0]); mid = len(p) // 2
    p.insert(mid, L[lang]['att'][k])
    emb.append(dict(text=join(lang, p), label="steering", lang=lang, source=SRC, category="embedded",
                    group=f"heldout-embedded:{lang}", context_dependent=False, ))
for name, rows in (('heldout_clean', clean), ('heldout_attacks', att), ('heldout_embedded', emb)):
    texts = [r['text'] for r in rows]
    assert len(set(texts)) == len(texts), name
    assert len({r['group'] for r in rows}) == len(rows), name
    with open(HERE.parent / f'{name}.jsonl', 'w', encoding='utf-8') as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
print("embedded kinds:", {l: "abcdefgh"[i % 8] for i, l in enumerate(EMB)})
