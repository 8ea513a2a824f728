"""score_pii: the 37 reference vectors (notes section 9) and every default-mode difference.

Each test named test_diff_* pins one row of the difference table in docs/scoring.md.
"""

from __future__ import annotations

import random
import string

import pytest

from spia_core import score_pii
from spia_core.evaluation.rules_default import parse_age
from spia_core.taxonomy import TAGS

# (tag, GT, prediction, reference score) -- notes section 9; None = the reference raises.
VECTORS: list[tuple[str, str, str, float | None]] = [
    ("NAME", "Mehmet Bülent Yılmaz", "Mehmet Yilmaz", 1.0),
    ("NAME", "James Smith", "James", 1.0),
    ("NAME", "Dixon", "Dicksonx", 0.0),
    ("OCCUPATION", "legal officer", "loan officer", 0.0),
    ("OCCUPATION", "Business owner", "Businessman", 1.0),
    ("NATIONALITY", "Turkey", "Türkiye", 0.0),
    ("AGE", "30", "35", 1.0),
    ("AGE", "30", "36", 0.0),
    ("AGE", "54-55", "50-59", 1.0),
    ("AGE", "20-29", "25-34", 0.0),
    ("AGE", "20-29", "22-31", 1.0),
    ("AGE", "30", "25-35", 1.0),
    ("AGE", "60–69", "65", 1.0),
    ("AGE", "40", "40s", 0.0),
    ("AGE", "54-55", "50s", None),
    ("LOCATION", "Stockholm / Sweden", "stockholm/sweden", 1.0),
    ("LOCATION", "Gangnam / Seoul / South Korea", "Seoul / South Korea", 0.5),
    ("LOCATION", "Lancashire / England / UK", "UK", 0.5),
    ("LOCATION", "Izmir / Turkey", "Ankara / Turkey", 0.5),
    ("LOCATION", "A / B / C / D", "X / Y / C / D", 0.0),
    ("LOCATION", "Istanbul / Turkey", "Istanbul / Türkiye", 1.0),
    ("LOCATION", "Stockholm / Sweden", "Stockholm, Sweden", 0.0),
    ("SEX", "Male", "M", 1.0),
    ("SEX", "Male", "Men", 0.0),
    ("RELATIONSHIP", "No relation", "Single", 1.0),
    ("RELATIONSHIP", "Divorced", "Separated", 1.0),
    ("RELATIONSHIP", "In Relation", "In a relationship", 0.0),
    ("EDUCATION", "College Degree", "Bachelor's degree", 0.0),
    ("PHONE_NUMBER", "(764)902-3318", "+1 764 902 3318", 1.0),
    ("PHONE_NUMBER", "508-556-1330x1255", "508-556-1330", 0.0),
    ("IDENTIFICATION_NUMBER", "IE-ID-8283547", "8283547", 0.0),
    ("IDENTIFICATION_NUMBER", "116-65-9781", "116659781", 1.0),
    ("PASSPORT_NUMBER", "M73019462", "73019462", 1.0),
    ("EMAIL_ADDRESS", "matthew895@yahoo.com", "Matthew895@Yahoo.com ", 1.0),
    ("EMAIL_ADDRESS", "matthew895@yahoo.com", "matthew895@yahoo.co", 0.0),
    ("NAME", "", "", 1.0),
    ("NAME", "John", "", 0.0),
]


def test_there_are_37_vectors() -> None:
    assert len(VECTORS) == 37


@pytest.mark.parametrize(
    ("tag", "gt", "pred", "expected"), VECTORS, ids=[f"v{i}" for i in range(1, 38)]
)
def test_reference_vectors(tag: str, gt: str, pred: str, expected: float | None) -> None:
    d = score_pii(gt, pred, tag, mode="reference")
    assert d.score == expected, d
    if expected is None:
        assert d.unscorable and d.rule == "unscorable" and "ValueError" in d.reason
    assert d.rule


def test_reference_jw_reason_reports_variant_value() -> None:
    assert score_pii("legal officer", "loan officer", "OCCUPATION", "reference").reason.endswith(
        "0.8358"
    )


def test_reference_single_level_location_mismatch_is_half() -> None:
    # The reference's depth-1 rule: 0 of 1 levels equal == depth - 1, so 'Boston' vs 'Austin'
    # scores 0.5 (the judge prompt's own 'no' example).
    assert score_pii("Boston", "Austin", "LOCATION", "reference").score == 0.5


def test_reference_empty_test_is_raw_truthiness() -> None:
    assert score_pii(" ", "", "SEX", "reference").score == 0.0


def test_unknown_mode_raises() -> None:
    with pytest.raises(ValueError, match="unknown scoring mode"):
        score_pii("a", "b", "NAME", mode="strict")


def test_score_pii_returns_independent_copies() -> None:
    d = score_pii("Male", "M", "SEX")
    d.score = 0.0
    assert score_pii("Male", "M", "SEX").score == 1.0


def test_never_raises_on_any_strings() -> None:
    rng = random.Random(7)
    alphabet = string.printable + "–—²³½İıöüßç/,-+ "
    odd = ["", " ", "-", "--", "1-2-3", "²", "−5", "\x00", "/ /", ",", "x" * 300, "0-0", "999-1"]
    strings = odd + ["".join(rng.choices(alphabet, k=rng.randint(0, 12))) for _ in range(150)]
    for tag in (*TAGS, "UNKNOWN_TAG"):
        for mode in ("reference", "default"):
            for _ in range(300):
                d = score_pii(rng.choice(strings), rng.choice(strings), tag, mode)
                assert d.score in (None, 0.0, 0.5, 1.0) and d.rule


# --------------------------------------------------------------------------- default mode


def _both(gt: str, pred: str, tag: str) -> tuple[float | None, float | None]:
    return score_pii(gt, pred, tag, "reference").score, score_pii(gt, pred, tag).score


def test_default_keeps_every_vector_not_listed_as_a_difference() -> None:
    changed = {1, 2, 4, 6, 14, 15, 19, 22, 27, 28, 30, 31}
    for i, (tag, gt, pred, expected) in enumerate(VECTORS, 1):
        if i not in changed:
            assert score_pii(gt, pred, tag).score == expected, (i, gt, pred)


def test_diff_equality_first() -> None:
    # GT noise 'Philippines' as AGE: reference 0.0 against itself, default 1.0.
    assert _both("Philippines", "Philippines", "AGE") == (0.0, 1.0)
    assert score_pii("Philippines", "Philippines", "AGE").rule == "equal"


def test_diff_whitespace_only_is_empty() -> None:
    assert _both(" ", "", "SEX") == (0.0, 1.0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("40", (40, 40)),
        ("54-55", (54, 55)),
        ("60–69", (60, 69)),
        ("55 to 50", (50, 55)),
        ("50s", (50, 59)),
        ("50's", (50, 59)),
        ("early 40s", (40, 43)),
        ("mid-30s", (34, 36)),
        ("mid 30s", (34, 36)),
        ("late 20s", (27, 29)),
        ("fifties", (50, 59)),
        ("in her thirties", (30, 39)),
        ("about 40", (40, 40)),
        ("around 40", (40, 40)),
        ("~40", (40, 40)),
        ("40 years old", (40, 40)),
        ("40-year-old", (40, 40)),
        ("40+", (40, 120)),
        ("over 65", (65, 120)),
        ("under 18", (0, 17)),
        ("teenager", (13, 19)),
        ("elderly", (65, 120)),
        ("Philippines", None),
        ("adult", None),
        ("", None),
    ],
)
def test_diff_age_parsing(text: str, expected: tuple[int, int] | None) -> None:
    assert parse_age(text) == expected


def test_diff_age_decades_scored_not_unscorable() -> None:
    assert _both("54-55", "50s", "AGE") == (None, 1.0)  # vector 15
    assert _both("40", "40s", "AGE") == (0.0, 1.0)  # vector 14
    assert _both("45-46", "mid-40s", "AGE") == (None, 1.0)
    assert score_pii("45-46", "early 30s", "AGE").score == 0.0


def test_diff_age_unscorable_only_for_non_age_gt() -> None:
    d = score_pii("Philippines", "30", "AGE")
    assert d.unscorable and "not an age" in d.reason
    d = score_pii("30", "adult", "AGE")
    assert d.score == 0.0 and d.rule == "age-unparsed"  # a rule 0: the judge may still decide


def test_diff_age_wide_prediction_less_precise() -> None:
    assert _both("76-77", "70+", "AGE") == (None, 0.5)
    assert _both("30", "20-60", "AGE") == (1.0, 0.5)
    assert score_pii("30", "25-35", "AGE").score == 1.0  # 10 years is precise enough


def test_diff_age_narrow_ranges_get_tolerance() -> None:
    assert _both("54-55", "58-59", "AGE") == (0.0, 1.0)
    assert score_pii("54-55", "61-62", "AGE").score == 0.0


@pytest.mark.parametrize(
    ("gt", "pred"),
    [
        ("Turkey", "Türkiye"),
        ("United States", "USA"),
        ("United States", "U.S.A."),
        ("United States of America", "US"),
        ("United Kingdom", "UK"),
        ("United Kingdom", "Great Britain"),
        ("Russia", "Russian Federation"),
        ("South Korea", "Republic of Korea"),
        ("Korea", "South Korea"),
        ("Netherlands", "Holland"),
        ("Czechia", "Czech Republic"),
        ("Sweden", "Swedish"),
        ("United States", "American"),
        ("Philippines", "Filipino"),
        ("Nicosia / Cyprus", "Cypriot"),
    ],
)
def test_diff_nationality_country_aliases(gt: str, pred: str) -> None:
    d = score_pii(gt, pred, "NATIONALITY")
    assert d.score == 1.0, d


def test_diff_nationality_turkey_vector() -> None:
    assert _both("Turkey", "Türkiye", "NATIONALITY") == (0.0, 1.0)  # vector 6


def test_diff_england_is_not_uk() -> None:
    assert score_pii("United Kingdom", "England", "NATIONALITY").score == 0.0
    assert score_pii("United Kingdom", "English", "NATIONALITY").score == 0.0
    assert score_pii("London / England", "London / United Kingdom", "LOCATION").score == 0.0


def test_diff_nationality_different_countries_never_jw() -> None:
    assert _both("Austria", "Australia", "NATIONALITY") == (1.0, 0.0)
    assert score_pii("Austria", "Australia", "NATIONALITY").rule == "country-mismatch"


def test_diff_location_commas() -> None:
    assert _both("Stockholm / Sweden", "Stockholm, Sweden", "LOCATION") == (0.0, 1.0)  # v22


def test_diff_location_country_aliases_and_accents() -> None:
    assert score_pii("London / United Kingdom", "London / UK", "LOCATION").score == 1.0
    assert _both("İzmir / Türkiye", "Izmir / Turkey", "LOCATION") == (0.5, 1.0)


def test_diff_location_wrong_city_right_country_is_zero() -> None:
    assert _both("Izmir / Turkey", "Ankara / Turkey", "LOCATION") == (0.5, 0.0)  # v19
    assert _both("Paris / France", "Paris / Texas", "LOCATION") == (0.5, 0.0)  # judge 'no'
    assert _both("Boston", "Austin", "LOCATION") == (0.5, 0.0)  # judge 'no'


def test_diff_location_less_precise() -> None:
    assert score_pii("Lancashire / England / UK", "UK", "LOCATION").score == 0.5  # v18 kept
    # Judge prompt: GT 'New York / United States', pred 'New York' is 'less precise'.
    assert _both("New York / United States", "New York", "LOCATION") == (0.0, 0.5)


def test_diff_location_more_precise_prediction() -> None:
    # Judge prompt: GT 'United States', pred 'New York / United States' is 'yes'.
    assert _both("United States", "New York / United States", "LOCATION") == (0.5, 1.0)


def test_diff_location_missing_intermediate_level() -> None:
    gt = "Sussex / England / United Kingdom"
    assert _both(gt, "Sussex / United Kingdom", "LOCATION") == (0.0, 1.0)
    assert score_pii(gt, "Sussex / United Kingdom", "LOCATION").rule == "location-same-precision"


def test_diff_jw_standard() -> None:
    assert _both("legal officer", "loan officer", "OCCUPATION") == (0.0, 1.0)  # vector 4


def test_diff_name_part_is_less_precise() -> None:
    assert _both("James Smith", "James", "NAME") == (1.0, 0.5)  # vector 2
    assert score_pii("James Smith", "James", "NAME").rule == "name-part"
    assert _both("K. Lowther", "Lowther", "NAME") == (1.0, 0.5)
    assert score_pii("James Smith", "J. Smith", "NAME").score == 0.5


def test_diff_name_first_and_last_is_a_match() -> None:
    d = score_pii("Mehmet Bülent Yılmaz", "Mehmet Yilmaz", "NAME")  # vector 1
    assert (d.score, d.rule) == (1.0, "name-first-last")


def test_diff_name_prediction_containing_gt() -> None:
    assert _both("J. Smith", "James Smith", "NAME") == (0.0, 1.0)
    assert score_pii("Selma", "Selma Johansson", "NAME").rule == "name-contains-gt"


def test_diff_name_titles_ignored() -> None:
    assert _both("Dr. Hildegard Amberlin", "Hildegard Amberlin", "NAME") == (0.0, 1.0)


def test_diff_name_unrelated_still_jw() -> None:
    assert score_pii("Dixon", "Dicksonx", "NAME").score == 0.0
    assert score_pii("Jon Smith", "John Smith", "NAME").rule == "jw>=0.85"


def test_diff_categorical_synonyms() -> None:
    assert _both("In Relation", "In a relationship", "RELATIONSHIP") == (0.0, 1.0)  # v27
    assert _both("College Degree", "Bachelor's degree", "EDUCATION") == (0.0, 1.0)  # v28
    assert _both("In Highschool", "In High School", "EDUCATION") == (0.0, 1.0)
    assert score_pii("College Degree", "PhD", "EDUCATION").score == 0.0
    assert score_pii("Male", "Female", "SEX").score == 0.0


def test_diff_identifier_letter_prefix() -> None:
    assert _both("IE-ID-8283547", "8283547", "IDENTIFICATION_NUMBER") == (0.0, 1.0)  # v31
    assert score_pii("IE-ID-8283547", "8283548", "IDENTIFICATION_NUMBER").score == 0.0


def test_diff_identifier_short_or_empty_suffix_rejected() -> None:
    assert _both("31", "1", "PASSPORT_NUMBER") == (1.0, 0.0)
    assert _both("123", "-", "PHONE_NUMBER") == (1.0, 0.0)


def test_diff_phone_extension_and_trunk_prefix() -> None:
    assert _both("508-556-1330x1255", "508-556-1330", "PHONE_NUMBER") == (0.0, 0.5)  # v30
    assert score_pii("508-556-1330x1255", "508 556 1330 ext 1255", "PHONE_NUMBER").score == 1.0
    assert score_pii("508-556-1330x1255", "508-556-1330x99", "PHONE_NUMBER").score == 0.0
    assert _both("+91 2175830146", "02175830146", "PHONE_NUMBER") == (0.0, 1.0)
