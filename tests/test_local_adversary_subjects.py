"""Stage A of the local adversary: who the subjects are and which mentions belong to whom."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary
from spia_core.adversary.local.mentions import (
    find_cue_names,
    find_paired_names,
    find_role_mentions,
)
from spia_core.adversary.local.patterns import masked_spans
from spia_core.adversary.local.subjects import Draft, find_subjects


def _drafts(text: str, adversary: LocalAdversary) -> list[Draft]:
    doc = adversary._nlp().nlp(text)
    ents = [(e.start_char, e.end_char, e.label_) for e in doc.ents]
    return find_subjects(text, ents, masked_spans(text))


def _descriptions(text: str, adversary: LocalAdversary) -> list[str]:
    return [s.description for s in adversary.infer(text).subjects]


def test_role_qualifiers_keep_different_officials_apart() -> None:
    text = (
        "The public prosecutor objected. Then the Principal Public Prosecutor of the "
        "Court of Cassation replied. The prosecutor then withdrew."
    )
    roles = find_role_mentions(text)
    quals = [r.qualifier for r in roles]
    assert quals == ["public|", "principal public|court of cassation", "|"]


def test_two_prosecutors_and_a_bare_reference(adversary: LocalAdversary) -> None:
    text = (
        "The applicant was arrested. The public prosecutor drew up an indictment. "
        "Then the Principal Public Prosecutor of the Court of Cassation gave an opinion. "
        "Later the public prosecutor also appealed."
    )
    drafts = _drafts(text, adversary)
    prosecutors = [d for d in drafts if "prosecutor" in d.roles]
    assert len(prosecutors) == 2
    first = next(d for d in prosecutors if any("appealed" in text[m.end :] for m in d.mentions))
    assert sum(m.kind == "role" for m in first.mentions) == 2


def test_indefinite_role_is_a_person_unless_predicate(adversary: LocalAdversary) -> None:
    text = (
        "The applicant was a judge. A judge of the District Court wrote two letters about "
        "the hearing dates."
    )
    descs = _descriptions(text, adversary)
    judges = [d for d in descs if d.startswith("Judge of the District Court")]
    assert len(judges) == 1
    assert len(descs) == 2  # the applicant and the District Court judge, no third "judge"


def test_opening_sentence_names_the_applicant_on_masked_text(adversary: LocalAdversary) -> None:
    text = (
        "The case originated in an application against [LOC] lodged with the [ORG] by a [DEM] "
        "national, Mr [PERSON], on [DATETIME].\n\nThe applicant was represented before the "
        "[ORG] by [PERSON], a [DEM] practising in [LOC]. The applicant was born in [DATETIME]."
    )
    drafts = _drafts(text, adversary)
    applicant = [d for d in drafts if "applicant" in d.roles]
    assert len(applicant) == 1
    assert any(m.kind == "placeholder" and m.title == "Mr" for m in applicant[0].mentions)
    lawyers = [d for d in drafts if "lawyer" in d.roles]
    assert len(lawyers) == 1 and lawyers[0] is not applicant[0]


def test_possessive_role_is_not_an_apposition(adversary: LocalAdversary) -> None:
    text = (
        "The applicant, Mr Kenan Tuncel, lives in Bolu. Mr Ali Veli, the applicant's father, "
        "died in 1990. The applicant's wife, Mrs Ayse Tuncel, testified."
    )
    descs = _descriptions(text, adversary)
    father = next(d for d in descs if d.startswith("Mr Ali Veli"))
    wife = next(d for d in descs if d.startswith("Mrs Ayse Tuncel"))
    assert "father of the applicant" in father
    assert "wife of the applicant" in wife
    assert sum(d.split(" - ")[1].startswith("the applicant") for d in descs) == 1


def test_official_roles_without_names_become_subjects(adversary: LocalAdversary) -> None:
    text = (
        "The applicant applied for a permit. The Minister of Agriculture dismissed the request. "
        "The decision was sent to Sarıdere District Governor on 3 May 1992."
    )
    labels = [d.split(" - ")[0] for d in _descriptions(text, adversary)]
    assert "Minister of Agriculture" in labels
    assert "Sarıdere District Governor" in labels


def test_paired_first_names_share_the_surname() -> None:
    names = find_paired_names("So much fun at the barbecue with Owen & Clara Hughes.")
    assert [m.name for m in names] == ["Owen Hughes", "Clara Hughes"]
    assert find_paired_names("Paid Smith & Jones Miller Ltd today.") == []


def test_counted_kin_take_the_listed_names(adversary: LocalAdversary) -> None:
    text = "@pricek : Big thanks to my parents Alan & Ruth Price for the Sunday lunches."
    descs = _descriptions(text, adversary)
    assert any(d.startswith("Alan Price - parent") for d in descs)
    assert any(d.startswith("Ruth Price - parent") for d in descs)
    assert not any(d.startswith("Parent") for d in descs)


def test_first_name_after_social_cue_in_posts_only(adversary: LocalAdversary) -> None:
    post = "Megan : Long shift done, now a walk and tea with Rebecca later. Bliss!"
    assert any(d.startswith("Rebecca") for d in _descriptions(post, adversary))
    cues = find_cue_names("Off to lunch with Grace, then tea with Rebecca and Leighx.")
    assert [m.name for m in cues] == ["Rebecca"]  # 'Grace' is also a word; 'Leighx' unknown


def test_married_to_with_adjectives(adversary: LocalAdversary) -> None:
    text = "@ross_hale : Married to the wonderful Naomi Fraser, blessed with 4 lively kids."
    descs = _descriptions(text, adversary)
    assert any(d.startswith("Naomi Fraser - spouse of the author") for d in descs)
    assert sum(d.startswith("Child") for d in descs) == 4


def test_quoted_log_code_belongs_to_someone_else(adversary: LocalAdversary) -> None:
    text = (
        'Matthew : The portal says: "Driver\'s License PH-DL-5520913847 could not be checked." '
        "I'm using my own licence IE-DL-0462193 to test."
    )
    subjects = adversary.infer(text).subjects
    author = next(s for s in subjects if "author" in s.description)
    other = [s for s in subjects if s is not author]
    assert [p.keyword for p in author.values("DRIVER_LICENSE_NUMBER")] == ["IE-DL-0462193"]
    assert any(
        p.keyword == "PH-DL-5520913847" for s in other for p in s.values("DRIVER_LICENSE_NUMBER")
    )


def test_masked_posts_partner_children_and_client(adversary: LocalAdversary) -> None:
    text = (
        "[PERSON] : Caring for patients. [DEM] life with [PERSON] and our [QUANTITY] little "
        "ones keep me busy. Whenever I enter client ID [CODE] the system crashes."
    )
    descs = _descriptions(text, adversary)
    assert sum(d.startswith("Spouse of the author") for d in descs) == 1
    assert sum(d.startswith("Child") for d in descs) == 4  # a masked count is read as four
    assert any(d.startswith("Client whose ID is [CODE]") for d in descs)
    assert not any(d.startswith("[PERSON]") for d in descs)


def test_place_after_preposition_is_not_a_person(adversary: LocalAdversary) -> None:
    text = "Seller: Ravindra\nLocation: Kota\nItem: Couch. Pickup from Mohan Vihar only."
    assert not any(d.startswith("Mohan Vihar") for d in _descriptions(text, adversary))


def test_titled_name_stops_at_full_stop(adversary: LocalAdversary) -> None:
    text = "I signed the form as Doctor Elspeth Crane. Did anyone else see this?"
    assert any(d.startswith("Doctor Elspeth Crane -") for d in _descriptions(text, adversary))


def _author(subjects):
    return next(s for s in subjects if "author of the text" in s.description)


def test_code_owner_is_read_from_the_nearest_words(adversary: LocalAdversary) -> None:
    text = (
        "@amy_k : Whenever I enter client ID UK-ID-7654321 from my workstation "
        "(+441154960817), the screen freezes. I typed my passport number "
        "(Y12345678) twice, no luck. Some addresses (like petersmith@example.com) bounce."
    )
    subjects = adversary.infer(text).subjects
    author = _author(subjects)
    mine = {p.keyword for s in [author] for p in s.piis if p.keyword and p.evidence}
    assert "+441154960817" in mine and "Y12345678" in mine
    assert "UK-ID-7654321" not in mine and "petersmith@example.com" not in mine
    client = next(s for s in subjects if s.description.startswith("Client whose ID"))
    assert [p.keyword for p in client.values("IDENTIFICATION_NUMBER")] == ["UK-ID-7654321"]


def test_email_goes_to_the_person_it_names(adversary: LocalAdversary) -> None:
    text = "Quick question: why do p.lane@corvex.com and the handle @lanep collide in our DB?"
    subjects = adversary.infer(text).subjects
    holder = next(s for s in subjects if s.values("EMAIL_ADDRESS"))
    assert "author of the text" not in holder.description
    assert holder.values("NAME")[0].keyword == "P. Lane"


def test_kin_lists_share_their_possessor(adversary: LocalAdversary) -> None:
    descs = _descriptions("@tom_w : Sunday roast with my Mum and Dad, lovely as ever!", adversary)
    assert any(d.startswith("Mother of the author") for d in descs)
    assert any(d.startswith("Father of the author") for d in descs)


def test_mam_is_a_mother_not_a_name(adversary: LocalAdversary) -> None:
    descs = _descriptions("Visiting my mammy in the hospital tonight, then Mam's tea.", adversary)
    assert any(d.startswith("Mother of the author") for d in descs)
    assert not any(d.startswith("Mam") for d in descs)


def test_cue_names_handles_and_full_names_in_posts(adversary: LocalAdversary) -> None:
    text = (
        "@tessa_m : A quiet Friday with Leigh and our kids. Thanks to my parents, "
        "Omar & Lena, and to @DavidReyes. Logs mention “Helena Quinn” twice."
    )
    descs = _descriptions(text, adversary)
    assert any(d.startswith("Leigh - spouse of the author") for d in descs)
    assert any(d.startswith("Omar - parent") for d in descs)
    assert any(d.startswith("Lena - parent") for d in descs)
    assert any(d.startswith("David Reyes") for d in descs)
    assert any(d.startswith("Helena Quinn") for d in descs)


def test_firms_and_predicates_are_not_people(adversary: LocalAdversary) -> None:
    text = (
        "@kit_88 : I work as a police officer with Mallory, Quist and Barr. Lunch with Omar, "
        "Lena and Tom. #FamilyFirst"
    )
    descs = _descriptions(text, adversary)
    assert len(descs) == 4, descs  # the author, Omar, Lena, Tom
    assert "Police officer" in _author(adversary.infer(text).subjects).description


def test_counted_one_child_and_married_to_the_kindest_partner(adversary: LocalAdversary) -> None:
    text = "Nat : Married to the kindest partner, Paige, with one amazing kid. Life is good!"
    descs = _descriptions(text, adversary)
    assert any(d.startswith("Paige - spouse of the author") for d in descs)
    assert sum(d.startswith("Child of the author") for d in descs) == 1


@pytest.mark.parametrize(
    ("text", "children"),
    [
        ("[PERSON] : Been through a lot: [DEM], raising [QUANTITY] [DEM], yet strong.", 4),
        ("[PERSON] : As a [DEM] [DEM] of [QUANTITY], no two days are the same.", 4),
        ("[PERSON] : Shoutout to my hubby [PERSON] and our trio of [DEM]!", 3),
        ("Name: [PERSON] | Location: X\nFamily life ([QUANTITY] [DEM], [DEM] life), I agree.", 4),
        ("Posted by [PERSON]\nWe have [QUANTITY] [DEM] and a long drive ahead.", 4),
        ("We've got [QUANTITY] [DEM] under ten, so weekends are loud.", 4),
        ("We have [QUANTITY] cars and a dog.", 0),
    ],
)
def test_masked_counts_of_children(adversary: LocalAdversary, text: str, children: int) -> None:
    descs = _descriptions(text, adversary)
    assert sum(d.startswith("Child") for d in descs) == children, descs


def test_masked_partner_and_parents(adversary: LocalAdversary) -> None:
    text = "[PERSON] : [DEM] to [ORG] blessed with [QUANTITY] wonderful [DEM]. #FamilyFirst"
    assert any(d.startswith("Spouse of the author") for d in _descriptions(text, adversary))
    text = "Name: Shaun\nIt reminded me of times with my [DEM], [PERSON] and [PERSON]. Great!"
    descs = _descriptions(text, adversary)
    assert sum(d.startswith("Parent") for d in descs) == 2, descs
    text = "Name: Liam\nRecipes handed down from my folks, [DEM] and [PERSON]. Lovely."
    assert sum(d.startswith("Parent") for d in _descriptions(text, adversary)) == 2


@pytest.mark.parametrize(
    "text",
    [
        "[PERSON].smith : Lectures, grading and a garden to weed. Learning never stops.",
        "[PERSON] Name: JohnR62 | Location: Masalukot\nItem: Secondhand office bookshelf",
    ],
)
def test_masked_leads_are_the_author(adversary: LocalAdversary, text: str) -> None:
    subjects = adversary.infer(text).subjects
    assert len(subjects) == 1 and "author of the text" in subjects[0].description


def test_initials_post_nominal_judges_and_possessive_roles(adversary: LocalAdversary) -> None:
    text = (
        "The Government were represented by their Agent, Mr Z.M. Oktaylan. The applicant "
        "was a driver. His supervisor had nominated him for an award. Pellew LJ dismissed "
        "the appeal."
    )
    descs = _descriptions(text, adversary)
    assert any(d.startswith("Mr Z.M. Oktaylan - Agent") for d in descs)
    assert any(d.startswith("Pellew - judge") for d in descs)
    assert any("supervisor of the applicant" in d for d in descs)


def test_masked_spouse_in_judgments(adversary: LocalAdversary) -> None:
    text = (
        "The applicant was born in [DATETIME] and lives in [LOC].  His [DEM] died on "
        "[DATETIME]. The applicant later complained."
    )
    subjects = adversary.infer(text).subjects
    wife = next(s for s in subjects if s.description.startswith("Wife of the applicant"))
    applicant = next(s for s in subjects if s.description.startswith("The applicant"))
    assert [p.keyword for p in wife.values("SEX")] == ["Female"]
    assert [p.keyword for p in applicant.values("RELATIONSHIP")] == ["Widowed"]
    text = "His [DEM] career began in [LOC]. The applicant complained."  # no person slot
    assert not any("Wife" in d for d in _descriptions(text, adversary))


def test_indefinite_role_that_acts_is_a_person(adversary: LocalAdversary) -> None:
    text = (
        "Answering those letters, a judge of the District Court told the applicant "
        "that the hearing was postponed. She was, in fact, a judge of the District Court."
    )
    descs = _descriptions(text, adversary)
    assert sum(d.startswith("Judge of the District Court") for d in descs) == 1, descs


def test_masked_people_are_described_by_their_context(adversary: LocalAdversary) -> None:
    text = (
        "[PERSON] : Back in [DATETIME] a [DEM] got me hooked on sailing. "
        "Big thanks to my [PERSON] and [PERSON] for the inspiration!"
    )
    result = adversary.infer(text)
    others = [s for s in result.subjects if "post author" not in s.description]
    assert len(others) == 2
    assert all("inspiration" in s.description for s in others)
    assert not any("mother" in s.description or "father" in s.description for s in others)


def test_header_and_hashtag_placeholders_are_not_extra_people(adversary: LocalAdversary) -> None:
    text = (
        "Name: [PERSON] | Location: [PERSON] | Timestamp: [DATETIME]\nGreat article on rent "
        "reform! Juggling two jobs is hard. #[PERSON] Pickup from [PERSON] only."
    )
    descs = _descriptions(text, adversary)
    assert sum("post author" in d for d in descs) == 1
    assert any(d.startswith("Author of the article") for d in descs)  # the article's writer
    assert len(descs) == 2


@pytest.mark.parametrize(
    ("text", "what"),
    [
        (
            "[PERSON] : Debug session: [ORG] error with passport no. [CODE] input validation. "
            "Any hint?",
            "passport number",
        ),
        ("[PERSON] : My portal keeps failing. I even emailed [CODE] for support but no reply.", ""),
    ],
)
def test_masked_third_party_codes_make_a_holder(
    adversary: LocalAdversary, text: str, what: str
) -> None:
    descs = _descriptions(text, adversary)
    holders = [d for d in descs if "whose" in d]
    assert len(holders) == 1 and what in holders[0]
    assert "mentioned in" in holders[0]


def test_masked_count_after_my_is_counted(adversary: LocalAdversary) -> None:
    text = (
        "[PERSON] : Family first. [DEM] but dedicated to my [QUANTITY] [DEM] – every mile counts."
    )
    descs = _descriptions(text, adversary)
    assert sum(d.startswith("Child") for d in descs) == 4


def test_sale_listing_author_is_the_seller(adversary: LocalAdversary) -> None:
    text = "Seller: Patrick | Location: Wellington\nItem: Mechanical model kit. Price: NZD 75."
    descs = _descriptions(text, adversary)
    assert "seller of Mechanical model kit" in descs[0]


_JUDGMENT = (
    "The case originated in an application against Poland lodged with the Court by a Polish "
    "national, Mr Jan Kowalski (“the applicant”). The Government were represented by their "
    "Agent, Ms J. Nowak. "
)


def test_another_employee_and_a_certain_name_are_people(adversary: LocalAdversary) -> None:
    text = (
        _JUDGMENT + "She objected that the post went to another employee rather than "
        "to her. She relied on a contract signed by a certain G. Marwood and "
        "her uncle."
    )
    descs = _descriptions(text, adversary)
    assert any(d.lower().startswith("employee") for d in descs)
    assert any("Marwood" in d for d in descs)


def test_plaintiffs_representative_is_not_the_applicants(adversary: LocalAdversary) -> None:
    text = (
        _JUDGMENT + "Neither the plaintiff's representative nor the applicant's "
        "representative came to the hearing."
    )
    descs = _descriptions(text, adversary)
    lawyers = [d for d in descs if "representative" in d.split(" - ")[0]]
    assert len(lawyers) == 2


@pytest.mark.parametrize(
    ("phrase", "word"),
    [
        ("The applicant's landlord brought eviction proceedings.", "landlord"),
        ("A psychologist of the Wrocław Hospital examined the applicant.", "psychologist"),
        ("The Head of the Kraków Police Department refused the request.", "Head of"),
        ("The official receiver sold the company's assets.", "receiver"),
        ("An official of the Ministry of Finance wrote to the applicant.", "official"),
    ],
)
def test_officials_and_third_parties_by_role(
    adversary: LocalAdversary, phrase: str, word: str
) -> None:
    descs = _descriptions(_JUDGMENT + phrase, adversary)
    assert any(word.lower() in d.split(" - ")[0].lower() for d in descs), descs


_MASKED_JUDGMENT = (
    "The case originated in an application against [LOC] lodged with the [ORG] by a [DEM] "
    "national, [PERSON] (“the applicant”), on [DATETIME]. [ORG] (“the Government”) were "
    "represented by their Agent. "
)


def test_masked_body_filing_an_indictment_is_a_prosecutor(adversary: LocalAdversary) -> None:
    text = (
        _MASKED_JUDGMENT + "On [DATETIME] [ORG] at [ORG] filed an indictment against him "
        "for fraud. Later [ORG] at [ORG] gave his written opinion on the appeal."
    )
    descs = _descriptions(text, adversary)
    prosecutors = [d for d in descs if d.lower().startswith("public prosecutor")]
    assert len(prosecutors) == 2


def test_masked_donor_relatives_are_parents(adversary: LocalAdversary) -> None:
    text = (
        _MASKED_JUDGMENT + "In [DATETIME] the applicant’s [DEM] donated [QUANTITY] of their "
        "farm to the applicant."
    )
    descs = _descriptions(text, adversary)
    assert sum(d.startswith("Parent") for d in descs) == 2


def test_masked_applicant_in_apposition_is_the_same_applicant(adversary: LocalAdversary) -> None:
    text = _MASKED_JUDGMENT + "THE FACTS\n\nThe applicant, [PERSON], was born in [DATETIME]."
    descs = _descriptions(text, adversary)
    assert sum("the applicant" in d for d in descs) == 1, descs


def test_masked_born_children_of_the_applicant(adversary: LocalAdversary) -> None:
    text = (
        _MASKED_JUDGMENT + "His [DEM] died in [DATETIME], leaving [QUANTITY] [DEM] born in "
        "[DATETIME] and [DATETIME]."
    )
    descs = _descriptions(text, adversary)
    assert sum(d.startswith("Child") and "of the applicant" in d for d in descs) == 2


def test_a_doctor_the_applicant_appointed_is_not_the_tribunals(adversary: LocalAdversary) -> None:
    text = (
        _JUDGMENT + "The accredited doctor's report was never shown to her, nor to "
        "the physician she had chosen to comment on it."
    )
    descs = _descriptions(text, adversary)
    assert sum(d.lower().startswith(("accredited doctor", "physician")) for d in descs) == 2, descs


def test_more_judgment_roles_and_the_victims_relatives(adversary: LocalAdversary) -> None:
    text = (
        _JUDGMENT + "The court clerk refused to register the appeal. The gendarmerie commander "
        "ordered an inquiry. The victim's mother identified the body. The head doctor of the "
        "prison examined him. An undercover officer bought drugs from him."
    )
    labels = [d.split(" - ")[0] for d in _descriptions(text, adversary)]
    for want in ("Court clerk", "Gendarmerie commander", "Head doctor", "Undercover officer"):
        assert want in labels, labels
    assert "Mother of the victim" in labels


def test_masked_one_of_a_bodys_officers_is_a_person(adversary: LocalAdversary) -> None:
    text = (
        _MASKED_JUDGMENT + "On [DATETIME], [QUANTITY] of the [ORG]'s investigating officers "
        "told the applicant that the file was closed. He was then reported to his "
        "Commanding [DEM] on a wounding charge."
    )
    labels = [d.split(" - ")[0] for d in _descriptions(text, adversary)]
    assert "Investigating officers" in labels
    assert any(label.startswith("Commanding") for label in labels)
