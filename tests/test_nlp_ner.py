"""nlp._greedy: the entity recognizer's transition loop stepped from Python gives the entities
spaCy's own loop gives, in both readings the engine uses (NER alone; NER after the parser)."""

from __future__ import annotations

import pytest

import spia_core.nlp as nlp_module
from spia_core.nlp import _greedy, clear_parse_cache, load_pipeline, parse

TEXTS = [
    "Dear Ms Okonkwo-Baptiste,\n\nThank you for your letter of 3 March 2024. Dr Hal Petrov of "
    "the Riverside Clinic in Dundee will see you on Tuesday at 10.30am; please bring your NHS "
    "card and a list of medicines. Yours sincerely, Brenda Quayle (Practice Manager)",
    "Minutes of the Allotment Society, 14 June. Present: Tomasz Wierzbicki (chair), Aileen "
    "Moss (treasurer), [NAME], [NAME]. The treasurer reported a balance of £1,240.55 held at "
    "Barclays. Plot 7 goes to Mr Ferreira from Lisbon, who moved here in 2021.",
    "lol my brother in law just got a job at google in zurich, 32 and already a senior "
    "engineer??? meanwhile I'm still in Leeds driving for Deliveroo on weekends",
    "The applicant, Mr [PERSON], was born in [DATETIME] and lives in [LOC]. On 12 May 1998 "
    "the Regional Court of Ostrava dismissed his appeal; the European Commission of Human "
    "Rights declared the application admissible.",
    "   ",
    "OK.",
]


def _ents(doc) -> list[tuple]:
    return [(e.start, e.end, e.label_) for e in doc.ents] + [t.ent_iob for t in doc]


@pytest.mark.parametrize("text", TEXTS)
def test_stepped_ner_equals_spacys_loop_alone_and_after_the_parser(text):
    nlp = load_pipeline().nlp
    ner = nlp.get_pipe("ner")
    for before in ((), ("tok2vec", "parser")):
        docs = []
        for run in (ner, lambda d: _greedy(ner, d)):
            doc = nlp.make_doc(text)
            for name in before:
                doc = nlp.get_pipe(name)(doc)
            docs.append(run(doc))
        assert _ents(docs[0]) == _ents(docs[1]), before


def test_the_shared_parse_steps_ner_itself(monkeypatch):
    nlp = load_pipeline().nlp
    calls = []

    def counting(pipe, doc):
        calls.append(pipe.name)
        return _greedy(pipe, doc)

    monkeypatch.setattr(nlp_module, "_greedy", counting)
    text = TEXTS[0] + " (stepped)"
    clear_parse_cache()
    alone = _ents(parse(text, syntax=False))  # ner-mask's reading
    in_sentences = _ents(parse(text))  # the local adversary's: NER again, after the parser
    assert calls == ["ner", "ner"]
    assert alone == _ents(
        nlp(text, disable=["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer"])
    )
    assert in_sentences == _ents(nlp(text, disable=["tagger", "attribute_ruler", "lemmatizer"]))
    assert {"PERSON", "DATE", "GPE"} <= {e.label_ for e in parse(text).ents}
