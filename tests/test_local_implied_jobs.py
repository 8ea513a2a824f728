"""A job implied by the work a post's author describes (issue 16 item 3, session 11): trade cues
for the long tail of the taxonomy (occupation_activities.tsv), verbs read in any inflection, and
other people's jobs kept from the author. Invented sentences only."""

from __future__ import annotations

import pytest

from spia_core.adversary.local import LocalAdversary


def _author_jobs(adv: LocalAdversary, text: str) -> list[tuple[str, int]]:
    author = next(s for s in adv.infer(text).subjects if "author" in s.description)
    return [(p.keyword, p.certainty) for p in author.piis if p.tag == "OCCUPATION" and p.keyword]


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("Got called out to a lockout at 2am, changed the deadlocks on a back door.", "Locksmith"),
        ("I spent today on the forecourt, restocking the kiosk between fuel drops.", "Petrol"),
        ("I spent the day baling and ploughing; silage next week if the weather holds.", "Tractor"),
        ("Tonight I dealt blackjack for six hours and the roulette table was packed.", "Croupier"),
        ("I was on the bin lorry at six; my bin rounds cover four estates.", "Refuse"),
        ("Swapped two hearing aids and ran audiograms all morning at my clinic.", "Audiologist"),
    ],
)
def test_long_tail_trade_cues(adv: LocalAdversary, text: str, job: str) -> None:
    jobs = _author_jobs(adv, text)
    assert jobs and jobs[0][0].startswith(job), jobs
    assert jobs[0][1] == 1, jobs  # work read from activities stays a weak guess


def test_work_verbs_in_any_inflection(adv: LocalAdversary) -> None:
    # only the inflected verb forms name the work: 'plastered', 'skimmed' (cues: plaster, skim)
    jobs = _author_jobs(adv, "Yesterday I plastered a ceiling and skimmed two bedroom walls.")
    assert jobs[:1] == [("Plasterer", 1)], jobs


@pytest.mark.parametrize(
    "text",
    [
        "My team of four buyers handles the tenders every quarter.",
        "In my ward there are six nurses on nights.",
        "Weekend hobby: I finally glazed my first pot in the little kiln at home!",
        "I bought a tile cutter and spent the weekend grouting our own bathroom.",
        "My brother climbs wind turbines for a living; he services a nacelle most days.",
    ],
)
def test_others_jobs_hobbies_and_purchases_stay_weak(adv: LocalAdversary, text: str) -> None:
    assert all(c <= 1 for _, c in _author_jobs(adv, text)), _author_jobs(adv, text)


@pytest.mark.parametrize(
    "text",
    [
        "Got a sync error in the waste-collection scheduling app again.",
        "I work in retail software these days, mostly on the checkout side.",
        "Our translation plugin broke after the update, every page comes out blank.",
    ],
)
def test_a_word_modifying_software_is_its_topic_not_a_trade(adv: LocalAdversary, text: str) -> None:
    # session 12: the app's or plugin's subject ("waste-collection", "retail", "translation")
    # says what the software is about; a user reporting a fault gives no job from it
    assert _author_jobs(adv, text) == [], _author_jobs(adv, text)


@pytest.mark.parametrize(
    "text",
    [
        "I'm building a crop-yield forecasting tool and the model keeps crashing on import.",
        "The seismic-data viewer we maintain throws a null pointer after the update.",
        "We migrated the clinic appointment database to a new host last night; search is slow.",
    ],
)
def test_building_or_running_software_is_it_work(adv: LocalAdversary, text: str) -> None:
    jobs = _author_jobs(adv, text)
    assert jobs[:1] == [("Software developer", 2)], jobs


@pytest.mark.parametrize(
    ("text", "job"),
    [
        ("I configure the office network and patch the servers every Tuesday night.", "System"),
        ("I troubleshoot laptops and printers for forty staff at a law firm.", "IT support"),
    ],
)
def test_running_machines_and_networks_is_it_work(adv: LocalAdversary, text: str, job: str) -> None:
    jobs = _author_jobs(adv, text)
    assert jobs and jobs[0][0].startswith(job), jobs


def test_a_system_with_no_software_word_is_no_software(adv: LocalAdversary) -> None:
    assert _author_jobs(adv, "We maintain the heating system in six schools.") == []
    text = "I serviced the heating system at a care home today and bled every radiator."
    assert "Software developer" not in dict(_author_jobs(adv, text))
    # a training programme is a course, not software, even after "online" and "update"
    text = "After the update I started the online paralegal training program my firm pays for."
    assert _author_jobs(adv, text)[:1] == [("Paralegal", 1)], _author_jobs(adv, text)


@pytest.mark.parametrize(
    ("text", "job"),
    [
        (
            "My first bake was done by five; the deck oven is finally fixed and the proofer too.",
            "Baker",
        ),
        ("I had two drunk night fares on the rank tonight, one tried to run off.", "Taxi driver"),
        ("I ran 140 parcels today and half my drops had nobody home.", "Delivery driver"),
        (
            "I had a long pre-flight briefing, then cabin service for 300 all the way to Doha.",
            "Flight",
        ),
    ],
)
def test_everyday_trades_of_thin_rows(adv: LocalAdversary, text: str, job: str) -> None:
    assert any(k.startswith(job) for k, _ in _author_jobs(adv, text))


@pytest.mark.parametrize(
    "text",
    [
        "Got my nails done and the dog neutered in one afternoon, what a day.",
        "Ordered a sourdough starter online, wish me luck with my first loaves!",
    ],
)
def test_a_customers_words_give_no_trade(adv: LocalAdversary, text: str) -> None:
    assert _author_jobs(adv, text) == []


# Session 15 (helper occ): a function word is no trade word ('till 6'), a word with an everyday
# sense is no cue ('forty minutes', 'the pouring rain'), rows of two fields that share a label
# ('Healthcare worker') give the label, a tie goes to the row whose cues have more words, a study
# held years ago does not outrank the job held now, and worker-side cues for trades that had few.


def _job(adv: LocalAdversary, post: str) -> str:
    author = [s for s in adv.infer(post).subjects if "author" in s.description][:1]
    return next(
        (p.keyword for s in author for p in s.piis if p.tag == "OCCUPATION" and p.keyword), ""
    )


@pytest.mark.parametrize(
    "post",
    [  # 'till' as 'until', minutes of time, rounds of edits, rain: no trade
        "I'm stuck in meetings till six again, then home for tea.",
        "It took me forty minutes to get through the traffic this morning and I'm fuming.",
        "Three rounds of edits later I'm back to my first version of the wedding speech.",
        "I got soaked walking the dog in the pouring rain, my boots are ruined.",
    ],
)
def test_an_everyday_word_is_no_trade(adv: LocalAdversary, post: str) -> None:
    assert _job(adv, post) == ""


def test_the_till_as_a_noun_is_still_a_trade(adv: LocalAdversary) -> None:
    assert _job(adv, "I cashed up the till at six and it was a fiver short again.") in {
        "Cashier",
        "Retail worker",
    }


def test_a_tie_of_two_healthcare_fields_gives_the_label(adv: LocalAdversary) -> None:
    post = (
        "My patients mostly come in with stiff necks and the treatment room is tiny, but I love it."
    )
    assert _job(adv, post) == "Healthcare worker"


def test_a_study_years_ago_is_not_the_job_now(adv: LocalAdversary) -> None:
    post = (
        "I was a very nervous chemistry student twenty years ago. These days I'm up at four "
        "proving dough and loading the deck oven."
    )
    assert _job(adv, post) == "Baker"


def test_a_study_now_still_outranks_a_trade_word(adv: LocalAdversary) -> None:
    post = "I'm a chemistry student and at weekends I help out proving dough at a bakery."
    assert _job(adv, post) == "Student"


@pytest.mark.parametrize(
    ("post", "job"),
    [  # worker-side cues of trades that had few
        (
            "I signed the tech log at five after swapping a seal on the nose gear.",
            "Aircraft mechanic",
        ),
        ("I put a new hairspring in a pocket watch and ran it on the timegrapher.", "Watchmaker"),
        ("I did twenty bouquets and three funeral tributes before lunch.", "Florist"),
        (
            "I ordered three coffins today and sorted the funeral arrangements for two families.",
            "Funeral director",
        ),
        (
            "I got a loose dog behind the school with the catch pole, nobody bitten.",
            "Animal control officer",
        ),
        ("I was slinging steel all day and binned two shackles with no tags.", "Rigger"),
        (
            "My ticket queue is at forty and I'm on the service desk till six.",
            "IT support technician",
        ),
    ],
)
def test_worker_side_cues(adv: LocalAdversary, post: str, job: str) -> None:
    assert _job(adv, post) == job


def test_a_tie_goes_to_the_row_of_the_longer_cue(adv: LocalAdversary) -> None:
    post = "I spent the morning on a claw setting and the afternoon with the torch on a bracelet."
    assert _job(adv, post) == "Jeweller"  # 'claw setting' (Jeweller) over 'torch' (Welder)


@pytest.mark.parametrize(
    ("post", "job"),
    [  # session 16: worker-side cues (what a worker of the trade handles or does)
        (
            "Spent the week on salary survey returns and the merit matrix for the pay review.",
            "Compensation analyst",
        ),
        (
            "I was river gauging at dawn with the current meter, then redid the rating curve.",
            "Hydrologist",
        ),
        (
            "I topped up the bait stations at a warehouse and took down a wasp nest at a school.",
            "Pest controller",
        ),
        (
            "I retested three fixes, the regression suite is green and two flaky tests are left.",
            "Software tester",
        ),
        (
            "I logged core all week at the camp and sent forty rock samples off for assay.",
            "Geologist",
        ),
        (
            "I did pat-downs all morning and the body scanner kept alarming on belts.",
            "Airport security officer",
        ),
        (
            "I typed clinic letters from the dictation all day, foot pedal under the desk.",
            "Medical transcriptionist",
        ),
        (
            "I wrote the call sheets, chased location permits and met the financiers again.",
            "Film producer",
        ),
        ("I cut rushes in the edit suite all day and rebuilt the proxies twice.", "Video editor"),
        (
            "I spent the week on interview transcripts and the literature review for the study.",
            "Research assistant",
        ),
        (
            "I sorted the franking machine, the cleaning contract and key fobs for new starters.",
            "Office manager",
        ),
        ("I did the care calls on my round: personal care and two double-up calls.", "Care worker"),
        ("I cashed up, did the price checks and counted the till drawer twice.", "Cashier"),
        (
            "I was changing barrels and pulling pints till midnight, then the glass washer broke.",
            "Bartender",
        ),
        (
            "I made forty cold calls and two client visits, still short of my sales targets.",
            "Sales representative",
        ),
        ("I was on the slit lamp all morning, then refraction and visual fields.", "Optometrist"),
        ("I had three admissions before lunch and one very confused gentleman.", "Nurse"),
    ],
)
def test_worker_side_cues_session_16(adv: LocalAdversary, post: str, job: str) -> None:
    assert _job(adv, post) == job


@pytest.mark.parametrize(
    "post",  # a verb every trade does names no job of its own
    ["I report breaches to the regulator every quarter.", "I assess people in their own homes."],
)
def test_reporting_and_assessing_are_no_job_title(adv: LocalAdversary, post: str) -> None:
    assert _job(adv, post) not in {"Reporter", "Assessor"}
