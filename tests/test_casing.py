"""An all-capitals text is read by the local adversary in sentence case (spia_core.text.casing)."""

from __future__ import annotations

from spia_core.text.casing import capital_spans, mostly_capitals, reading_view

NOTE = (
    "Dear Sir, I am writing about the flat at [ADDRESS]. My name is [NAME] and I have worked "
    "as a school librarian at [ORG] for nine years. My wife [NAME] is a retired postwoman, and "
    "our son, who is 12, attends [SCHOOL] near our home in Sheffield. I was born in Poland "
    "and came here in 2011. Please call me on [PHONE].\n\nYours faithfully,\n[NAME]\n"
)


def test_view_restores_sentence_case_with_the_same_offsets() -> None:
    shouted = "URGENT. CAPTAIN ODILE MBEKI REPORTS THAT ENGINEER TOMAS WIERZBICKI OF THE NHS "
    shouted += "TEAM FLEW FROM ROTTERDAM TO [LOCATION] IN MARCH; HIS WIFE IS POLISH. I WILL CALL."
    view = reading_view(shouted)
    assert len(view) == len(shouted)
    assert view.lower() == shouted.lower()
    assert view.startswith("Urgent. Captain Odile Mbeki reports that engineer Tomas Wierzbicki")
    assert "of the NHS team flew from Rotterdam to [LOCATION] in March; his wife is Polish." in view
    assert view.endswith("I will call.")


def test_words_that_are_also_names_follow_their_context() -> None:
    view = reading_view("WE MOVED FROM READING TO BATH. I WILL MARK THE PAPERS FOR MRS ROSE BAKER.")
    assert view == "We moved from Reading to Bath. I will mark the papers for Mrs Rose Baker."


def test_codes_addresses_and_contractions_keep_their_shape() -> None:
    shouted = "SHE SAID: “IT'S LOCKED.” I DON'T KNOW O'NEILL. "
    shouted += "REF AB-2291-K, ID 88; MAIL TO PAT@EXAMPLE.ORG"
    assert reading_view(shouted) == (
        "She said: “It's locked.” I don't know O'Neill. "
        "Ref AB-2291-K, ID 88; mail to pat@example.org"
    )


def test_mixed_case_text_is_left_as_it_is() -> None:
    assert not mostly_capitals(NOTE)
    assert reading_view(NOTE) is NOTE
    assert reading_view("[NAME] [ADDRESS] [PHONE] OK") == "[NAME] [ADDRESS] [PHONE] OK"


def test_all_capitals_audit_infers_what_the_sentence_case_audit_does() -> None:
    """spaCy reads capitals badly: the shouted note gave 2 facts (of 11) before the view."""
    from spia_core.model import NoticeKind
    from spia_core.pipeline import AuditConfig, audit_redacted

    def facts(text: str) -> tuple[set[tuple[str, str, str]], list[str]]:
        report = audit_redacted(text, AuditConfig())
        found = {
            (s.description.split(" - ")[0].lower(), p.tag, p.keyword.lower())
            for s in report.inferred_subjects
            for p in s.piis
            if p.certainty >= 3
        }
        return found, [n.kind for n in report.notices]

    plain, plain_kinds = facts(NOTE)
    shouted, shouted_kinds = facts(NOTE.upper())
    assert len(plain) >= 8
    assert shouted == plain
    assert NoticeKind.INPUT_QUIRK in shouted_kinds and NoticeKind.INPUT_QUIRK not in plain_kinds


def test_capitals_count_cased_letters_only_outside_placeholders() -> None:
    # digits, punctuation and letters without case ('ß' is lower, CJK has none) do not count
    assert mostly_capitals("ÉCOLE 12, RUE DE LA PAIX: 京都 ß OK? [PERSON] " * 2, 20)
    assert not mostly_capitals("École 12, rue de la paix: MR DURAND AND MRS DURAND " * 2, 20)
    assert not mostly_capitals("[PERSON] [PERSON] [PERSON] ABCDEF", 10)  # 6 letters outside
    text = "Dear Sir,\nRE: MR JOHN HALE, WELDER, 12 MILL LANE\nThank you for your letter."
    assert capital_spans(text) == [(10, 48)]
    assert capital_spans("Dear Sir,\nRE: MR J. HALE\nThanks.") == []  # 7 capitals < 8


def test_a_wrapped_line_goes_on_in_lower_case() -> None:
    shouted = "I HAVE WORKED AT THE DEPOT SINCE 2015\nUNTIL LAST SPRING.\n\nTHANKS AGAIN\n- TOM"
    assert reading_view(shouted) == (
        "I have worked at the depot since 2015\nuntil last spring.\n\nThanks again\n- Tom"
    )


LETTER_WITH_HEADING = """Dear Ms Hale,

RE: MR DAVID OKONJO, RETIRED WELDER, AGED 67, OF SWANSEA

Thank you for your letter of 3 March. We have reviewed the claim and will write again within
twenty working days. Please quote the reference above in any reply.

Yours sincerely,
[NAME]
Claims Team
"""


def test_a_heading_in_capitals_is_read_in_sentence_case() -> None:
    """Only the line in capitals changes; its person is found (before, spaCy missed him and
    his age and job went to Ms Hale)."""
    from spia_core.model import NoticeKind, Severity
    from spia_core.pipeline import AuditConfig, audit_redacted

    view = reading_view(LETTER_WITH_HEADING)
    assert "\nRe: Mr David Okonjo, retired welder, aged 67, of Swansea\n" in view
    assert view.replace(view.splitlines()[2], "") == LETTER_WITH_HEADING.replace(
        LETTER_WITH_HEADING.splitlines()[2], ""
    )
    report = audit_redacted(LETTER_WITH_HEADING, AuditConfig())
    person = next(s for s in report.inferred_subjects if "Okonjo" in s.description)
    found = {p.tag: p.keyword for p in person.piis if p.certainty >= 3}
    assert found["AGE"] == "67" and found["OCCUPATION"] == "Retired welder"
    (notice,) = [n for n in report.notices if n.kind == NoticeKind.INPUT_QUIRK]
    assert notice.severity == Severity.INFO and notice.detail == {"capital_lines": 1}


def test_street_names_after_a_number_or_a_name() -> None:
    view = reading_view("SHE LIVES AT 12 MILL LANE, OFF OKAFOR ROAD, AND PARKS IN THE CAR PARK.")
    assert view == "She lives at 12 Mill Lane, off Okafor Road, and parks in the car park."
