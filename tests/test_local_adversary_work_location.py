"""LA2: work (OCCUPATION/POSITION/AFFILIATION/EDUCATION) and place (LOCATION/NATIONALITY) tags."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary
from spia_core.adversary.local.attributes.location import _place, demonym_of, leading_place
from spia_core.adversary.local.attributes.work import (
    AGENT_OFFICES,
    job_used_as_job,
    role_phrase,
    role_work,
)

JUDGMENT = (
    "The case originated in an application against the Republic of Turkey lodged by a Turkish "
    "national, Mr Ali Demir (“the applicant”).\n\n"
    "The applicant was represented by Mr H. Uysal, a lawyer practising in Izmir. The Turkish "
    "Government (“the Government”) were represented by their Agent.\n\n"
    "On 5 March 2008 the President of the Second Section decided to give notice of the "
    "application to the Government.\n\n"
    "The applicant was born in 1960 and lives in Izmir.\n\n"
    "In 2001 the İzmir Public Prosecutor brought charges before the İzmir State "
    "Security Court."
)


@pytest.fixture(scope="module")
def result():
    return LocalAdversary().infer(JUDGMENT)


def _subject(result, fragment: str):
    for s in result.subjects:
        if fragment in s.description:
            return {p.tag: p for p in s.piis}
    raise AssertionError(
        f"no subject described with {fragment!r}: {[s.description for s in result.subjects]}"
    )


def test_agent_uses_spia_wording(result):
    piis = _subject(result, "Agent")
    assert piis["OCCUPATION"].keyword == "Government Agent"
    assert piis["POSITION"].keyword == "Agent"
    assert piis["AFFILIATION"].keyword == "Turkish Government"
    assert piis["EDUCATION"].keyword == "College Degree"


def test_president_position_is_the_role_phrase(result):
    piis = _subject(result, "President")
    assert piis["POSITION"].keyword == "President of the Second Section"
    assert piis["OCCUPATION"].keyword == "Judge"
    assert piis["AFFILIATION"].keyword == "European Court of Human Rights"


def test_lawyer_and_place_spelt_as_in_text(result):
    piis = _subject(result, "Uysal")
    assert piis["OCCUPATION"].keyword == "Lawyer"
    assert piis["LOCATION"].keyword == "Izmir / Türkiye"  # not the gazetteer's "İzmir"
    assert piis["NATIONALITY"].keyword == "Türkiye"


def test_prosecutor_place_prefix_goes_to_location(result):
    piis = _subject(result, "Prosecutor")
    assert piis["POSITION"].keyword == "Public Prosecutor"
    assert piis["OCCUPATION"].keyword == "Public Prosecutor"
    assert piis["LOCATION"].keyword == "İzmir / Türkiye"
    assert "İzmir" in piis["AFFILIATION"].keyword
    ev = piis["LOCATION"].evidence[0]
    assert JUDGMENT[ev.start : ev.end] == ev.text


def test_lexicon_helpers():
    assert role_phrase("the President of the Fourth Section") == "President of the Fourth Section"
    assert role_work()["agent"].occupation == "Government Agent"
    assert AGENT_OFFICES["United Kingdom"] == "Foreign and Commonwealth Office"
    assert demonym_of("Türkiye") == "Turkish"
    place, rest = leading_place("Sarıdere District Governor", "Türkiye")
    assert place is not None and place.country == "Türkiye" and rest == "District Governor"
    assert leading_place("Public Prosecutor")[0] is None


def test_ambiguous_city_prefers_document_country():
    assert _place("Durham", "United Kingdom").country == "United Kingdom"
    assert _place("Durham", "").country == "United States"
    assert _place("Cracow", "Poland").location() == "Cracow / Poland"


@pytest.mark.parametrize(
    "text, word",
    [
        ("Do others get errors on driver's license fields too?", "driver"),
        ("The upload stopped with “Driver Fault IN-DL-233” again.", "Driver"),
        ("I reinstalled the printer driver twice.", "driver"),
    ],
)
def test_job_word_inside_a_compound_is_not_a_job(text, word):
    s = text.index(word)
    assert not job_used_as_job(text, s, s + len(word))


def test_job_word_used_as_job_is_kept():
    text = "I'm a driver, license to drive trucks since 2001."
    s = text.index("driver")
    assert job_used_as_job(text, s, s + len("driver"))
    occ = LocalAdversary().infer("@sam_9 : As a truck driver I see errors with the license app.")
    author = occ.subjects[0]
    assert any(p.tag == "OCCUPATION" and p.keyword == "Truck driver" for p in author.piis)
    post = "David : Why does the form keep asking for my driver’s license details twice?"
    david = LocalAdversary().infer(post).subjects[0]
    assert not any(p.tag == "OCCUPATION" and p.keyword == "Driver" for p in david.piis)


def test_contact_countries_from_phone_prefix_and_cc_domain():
    from spia_core.adversary.local.context import contact_countries

    text = "Call +63 727114852 or mail b.ward@kaurilane.co.nz; see main.py and x@gmail.com"
    assert [c for _, _, c in contact_countries(text)] == ["Philippines", "New Zealand"]


def test_currency_evidence_is_the_whole_amount():
    from spia_core.adversary.local.context import contact_countries

    text = "Paid the vet £38. Then £1,200.50 for the roof and A$40 for the taxi."
    found = [(text[s:e], c) for s, e, c in contact_countries(text)]
    assert found == [
        ("£38", "United Kingdom"),
        ("£1,200.50", "United Kingdom"),
        ("A$40", "Australia"),
    ]


def test_header_place_abbreviations_and_unknown_towns():
    from spia_core.adversary.local.attributes.location import header_place_cert as place

    assert place("NT") == ("Northern Territory / Australia", 5)
    assert place("WA") == ("Washington / United States", 5)
    assert place("WA", "Australia") == ("Western Australia / Australia", 5)
    assert place("Masalukot", "Philippines") == ("Masalukot / Philippines", 3)
    assert place("Masalukot") == ("", 0)


def test_header_location_reaches_the_author_and_their_children():
    post = (
        "Username: Kavya | Location: Coimbatore | Posted: 2024-02-11 | Cooked all day. "
        "Married with 4 kids, so the kitchen never closes."
    )
    res = LocalAdversary().infer(post)
    locs = {
        s.description.split(" - ")[0]: [p.keyword for p in s.piis if p.tag == "LOCATION"]
        for s in res.subjects
    }
    assert any(v == ["Coimbatore / India"] for v in locs.values()), locs
    assert sum(v == ["Coimbatore / India"] for v in locs.values()) >= 2, locs


def _author_occupation(post: str) -> str:
    author = LocalAdversary().infer(post).subjects[0]
    return next((p.keyword for p in author.piis if p.tag == "OCCUPATION"), "")


def _affiliations(post: str) -> list[str]:
    author = LocalAdversary().infer(post).subjects[0]
    return [p.keyword for p in author.piis if p.tag == "AFFILIATION"]


def test_affiliation_from_work_email_domain_and_firm_possessive():
    assert _affiliations("Mila : My work email (m.hardy@brackenfield.co.nz) bounces.") == [
        "Brackenfield"
    ]
    assert _affiliations("Mila : My email (mila99@gmail.com) bounces.") in ([], [""])
    post = "@hazel_d : Updating Whitcombe, Darragh and Fennimore’s system on old laptops."
    assert _affiliations(post) == ["Whitcombe, Darragh and Fennimore"]


def test_affiliation_is_a_firm_named_after_its_partners_never_a_colleague():
    post = "Hi all, I'm Dana, an account manager with Pollard, Ngata and Vance. Any advice?"
    assert _affiliations(post) == ["Pollard, Ngata and Vance"]
    assert _affiliations("I've kept the books at Brennan, Cole & Asante since May.") == [
        "Brennan, Cole & Asante"
    ]
    assert _affiliations("I work with Tom at the depot, and he is great.") in ([], [""])
    assert _affiliations("Proud of my ten years with Keller, Doyle & Grant!") == [
        "Keller, Doyle & Grant"
    ]


# --------------------------------------------------------------------------- LEGAL round 2

FACTS = (
    "The case originated in an application against the Republic of Poland lodged by a Polish "
    "national, Mr Jan Nowak (“the applicant”).\n\n"
    "On 5 March 2008 the President of the Fourth Section decided to give notice of the "
    "application to the Government.\n\n"
    "The applicant was born in 1961 and is currently detained in Warsaw. In May 2001 two "
    "police officers arrested him at home.\n\n"
    "In June 2002 the Warsaw Regional Court found him guilty. Another judge of the Regional "
    "Court wrote to him."
)


@pytest.fixture(scope="module")
def facts():
    return LocalAdversary().infer(FACTS)


def test_detained_applicant_is_unemployed_not_the_arresting_officers_job(facts):
    piis = _subject(facts, "applicant")
    assert piis["OCCUPATION"].keyword == "Unemployed"
    assert "detained" in piis["OCCUPATION"].evidence[0].text


def test_short_court_name_refers_back_to_the_full_one(facts):
    piis = _subject(facts, "Judge of the Regional Court")
    assert piis["AFFILIATION"].keyword == "Warsaw Regional Court"


def test_judge_takes_the_court_named_in_the_sentence():
    text = (
        "The case originated in an application against the Republic of Poland lodged by a "
        "Polish national, Mr Jan Nowak (“the applicant”).\n\n"
        "On 4 June 2002 the military judge who sat on the Gdańsk District Court directed his "
        "release."
    )
    piis = _subject(LocalAdversary().infer(text), "Military judge")
    assert piis["AFFILIATION"].keyword == "Gdańsk District Court"
    assert piis["AFFILIATION"].certainty == 2


def test_applicant_job_word_is_also_the_position():
    text = (
        "The case originated in an application against the Republic of Turkey lodged by a "
        "Turkish national, Ms Ayşe Yılmaz (“the applicant”).\n\n"
        "The applicant works as a university professor and lives in Ankara. "
        "She was later represented by her lawyer."
    )
    piis = _subject(LocalAdversary().infer(text), "applicant")
    assert piis["OCCUPATION"].keyword == "University professor"
    assert piis["POSITION"].keyword == "University professor"


def test_compound_jobs_keep_their_kind():
    text = (
        "The case originated in an application against the Republic of Poland lodged by a "
        "Polish national, Mr Jan Kowalski (“the applicant”).\n\n"
        "The applicant, a taxi driver for many years, was born in 1957."
    )
    piis = _subject(LocalAdversary().infer(text), "applicant")
    assert piis["OCCUPATION"].keyword == "Taxi driver"


def test_article_is_not_a_place_before_a_role():
    place, rest = leading_place("A public prosecutor", "Poland")
    assert place is None and rest == "A public prosecutor"


def test_title_in_apposition_is_the_agents_position():
    text = (
        "The case originated in an application against Germany lodged "
        "by a German national, Mr Lukas Brenner (“the applicant”).\n\n"
        "The German Government (“the Government”) were represented by their Agent, "
        "Mrs B. Kessler, Ministerialrätin, of the Federal Ministry of Justice."
    )
    piis = _subject(LocalAdversary().infer(text), "Kessler")
    assert piis["POSITION"].keyword == "Ministerialrätin"
    assert piis["POSITION"].certainty == 5


def test_definite_or_possessive_job_word_is_someone_else():
    text = (
        "The case originated in an application against the French Republic lodged by a French "
        "national, Ms Marie Dubois (“the applicant”).\n\n"
        "The applicant was born in 1938. The tribunal relied on the opinion of its appointed "
        "doctor, and the applicant asked for a retirement pension."
    )
    piis = _subject(LocalAdversary().infer(text), "applicant")
    assert piis["OCCUPATION"].keyword == "Retired"


def test_masked_judgment_cited_against_two_places_is_the_united_kingdom():
    text = (
        "The case originated in an application (no. [CODE]) against [LOC] and [LOC] lodged "
        "with the [ORG] under Article 34 of the Convention by a [DEM] national, Mr [PERSON] "
        "(“the applicant”), on [DATETIME].\n\n"
        "[ORG] (“the Government”) were represented by their Agent, [PERSON] of [ORG], [LOC].\n\n"
        "The applicant was born in [DATETIME] and lives in [LOC]."
    )
    result = LocalAdversary().infer(text)
    assert result.trace["document_country"] == "United Kingdom"
    piis = _subject(result, "applicant")
    assert piis["NATIONALITY"].keyword == "United Kingdom"


def test_elected_and_ad_hoc_judges_belong_to_the_echr():
    text = (
        "The case originated in an application against the Republic of Turkey lodged by a "
        "Turkish national, Mr Ali Demir (“the applicant”).\n\n"
        "Mr Emre Kalkan, the elected judge for Turkey, stayed out of these "
        "proceedings (Rule 28). The Government then chose Mr Tuncay Sezer as "
        "ad hoc judge."
    )
    result = LocalAdversary().infer(text)
    for name in ("Kalkan", "Sezer"):
        piis = _subject(result, name)
        assert piis["AFFILIATION"].keyword == "European Court of Human Rights"


def test_state_official_works_for_the_government_but_a_prison_governor_for_the_prison():
    head = (
        "The case originated in an application against the Republic of Turkey lodged by a "
        "Turkish national, Mr Ali Demir (“the applicant”).\n\n"
    )
    district = LocalAdversary().infer(
        head + "On 3 May 2001 the Sarıdere District Governor refused."
    )
    assert _subject(district, "District Governor")["AFFILIATION"].keyword == "Turkish Government"
    prison = LocalAdversary().infer(head + "On 4 May 2001 the Governor of Wielkow Prison replied.")
    assert _subject(prison, "Wielkow Prison")["AFFILIATION"].keyword == "Wielkow Prison"


def test_employer_membership_and_unknown_home_town():
    text = (
        "The case originated in an application against the Republic of Austria lodged by an "
        "Austrian national, Mrs Anna Huber (“the applicant”).\n\n"
        "The applicant was born in 1955 and lives in Leobersau. She sued her "
        "employer, the Northern Mutual Insurance Company. In 1994 she joined "
        "a rowing club."
    )
    piis = _subject(LocalAdversary().infer(text), "applicant")
    assert piis["AFFILIATION"].keyword == "Northern Mutual Insurance Company"
    assert piis["LOCATION"].keyword == "Leobersau / Austria"
    assert piis["LOCATION"].certainty == 3


def test_section_president_is_not_affiliated_to_a_bare_court():
    text = (
        "The case originated in an application against the Republic of Poland lodged by a "
        "Polish national, Mr Jan Nowak (“the applicant”).\n\n"
        "In 2009 the President of the Fourth Section of this Court gave notice "
        "of the application. The Katowice Court threw out the claim."
    )
    piis = _subject(LocalAdversary().infer(text), "President of the Fourth Section")
    assert piis["AFFILIATION"].keyword == "European Court of Human Rights"


def test_professor_title_gives_a_doctorate():
    text = (
        "The case originated in an application against the United Kingdom lodged by a British "
        "national, Mr John Smith (“the applicant”). The Government were represented by their "
        "Agent, Prof. Dr Z. Oktaylan.\n\n"
        "In 2001 the appeal was rejected by the Court of Appeal. Pellew LJ found that the "
        "claim failed."
    )
    result = LocalAdversary().infer(text)
    assert _subject(result, "Oktaylan")["EDUCATION"].keyword == "PhD"


def test_role_phrase_drops_relative_clause_and_judge_keeps_the_post():
    assert role_phrase("the public prosecutor who filed the indictment") == "Public prosecutor"
    text = (
        "The case originated in an application against the Republic of Poland lodged by a "
        "Polish national, Mr Jan Nowak (“the applicant”).\n\n"
        "In June 2002 a judge of the District Court wrote to the applicant."
    )
    piis = _subject(LocalAdversary().infer(text), "Judge")
    assert piis["POSITION"].keyword == "Judge"


def test_masked_agent_director_of_legal_affairs_points_to_france():
    text = (
        "The case originated in an application (no. [CODE]) against the [DEM] Republic lodged "
        "with the [ORG] by Mr [PERSON] (“the applicant”), on [DATETIME].\n\n"
        "[ORG] (“the Government”) were represented by their Agent, Mrs [PERSON], Director of "
        "[ORG] with [ORG].\n\nThe applicant was born in [DATETIME] and lives in [LOC]."
    )
    assert LocalAdversary().infer(text).trace["document_country"] == "France"


def _occupations(post: str) -> dict[str, list[str]]:
    return {
        s.description.split(" - ")[0]: [v.keyword for v in s.values("OCCUPATION")]
        for s in LocalAdversary().infer(post).subjects
    }


def test_author_job_coordinated_after_kin_stays_with_the_author() -> None:
    occ = _occupations("@x_1 : Enjoying my life as a mum of three and a school librarian here.")
    assert occ["The author"] == ["Librarian"]
    assert all("Librarian" not in v for k, v in occ.items() if k.startswith("Child"))


def test_job_in_apposition_to_a_relative_is_the_relatives() -> None:
    occ = _occupations("@x_1 : My son, a doctor, visited me today.")
    assert occ["The author"] == []
    assert occ["Son of the author"] == ["Doctor"]


def test_one_line_post_is_not_a_header_name() -> None:
    author = LocalAdversary().infer("[PERSON] : hello there.").subjects[0]
    assert author.values("NAME") == []
