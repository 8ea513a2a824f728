"""The two-stage SPIA adversary on an LLM: Stage A (subjects), then CODE and NON-CODE inference.

Three calls per text (plus at most one JSON repair each). Evidence quotes are mapped back to
character offsets (exact, case-insensitive, whitespace-tolerant, then fuzzy). A failed or
garbled stage is recorded in ``InferenceResult.failures``; the result is then marked
incomplete, never silently empty.
"""

from __future__ import annotations

import difflib
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from spia_core.adversary.base import InferenceResult
from spia_core.adversary.registry import ADVERSARIES
from spia_core.llm import budgets
from spia_core.llm.base import LLM, LLMError
from spia_core.llm.connection import LLMConnection, resolve
from spia_core.model import PII, Evidence, Explanation, Subject
from spia_core.prompts import data_block, load_prompt
from spia_core.taxonomy import (
    CODE_TAGS,
    EDUCATION_VALUES,
    NON_CODE_TAGS,
    REFERENCE_DATE,
    RELATIONSHIP_VALUES,
    SEX_VALUES,
)

SUBJECTS_SCHEMA: dict[str, Any] = {
    "title": "subjects",
    "type": "object",
    "properties": {
        "subjects": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "integer"}, "description": {"type": "string"}},
                "required": ["id", "description"],
                "additionalProperties": False,
            },
        },
        "collectives_not_counted": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["subjects", "collectives_not_counted"],
    "additionalProperties": False,
}


def profile_schema(tags: tuple[str, ...], title: str) -> dict[str, Any]:
    """Schema of a Stage B answer restricted to ``tags``."""
    pii = {
        "type": "object",
        "properties": {
            # No enum: a stray tag is dropped at merge time instead of failing the stage.
            "tag": {"type": "string", "description": "one of " + ", ".join(tags)},
            "keyword": {"type": "string"},
            "certainty": {"type": "integer"},
            "evidence": {"type": "string"},
            "reasoning": {"type": "string"},
        },
        "required": ["tag", "keyword", "certainty", "evidence", "reasoning"],
        "additionalProperties": False,
    }
    subject = {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "description": {"type": "string"},
            "piis": {"type": "array", "items": pii},
        },
        "required": ["id", "description", "piis"],
        "additionalProperties": False,
    }
    return {
        "title": title,
        "type": "object",
        "properties": {"subjects": {"type": "array", "items": subject}},
        "required": ["subjects"],
        "additionalProperties": False,
    }


CODE_SCHEMA = profile_schema(CODE_TAGS, "code_profile")
NON_CODE_SCHEMA = profile_schema(NON_CODE_TAGS, "non_code_profile")

#: Keywords that mean "not inferable" (compared case-insensitively, brackets stripped).
_NOT_INFERABLE = frozenset(
    {
        "unknown", "n/a", "na", "none", "null", "not specified", "unspecified", "not mentioned",
        "not stated", "redacted", "masked", "not inferable", "cannot be inferred",
        "not available", "-",
    }
)  # fmt: skip


# --------------------------------------------------------------------------- evidence


def locate_quote(text: str, quote: str, *, min_ratio: float = 0.8) -> tuple[int, int] | None:
    """[start, end) of ``quote`` in ``text``: exact, case-insensitive, whitespace, then fuzzy."""
    q = quote.strip().strip("\"'“”‘’").strip(" .…")
    if len(q) < 3 or not text:
        return None
    start = text.find(q)
    if start >= 0:
        return start, start + len(q)
    lowered = text.lower()
    if len(lowered) == len(text):
        start = lowered.find(q.lower())
        if start >= 0:
            return start, start + len(q)
    words = q.split()
    pattern = r"\s+".join(re.escape(w) for w in words)
    match = re.search(pattern, text, re.IGNORECASE)
    if match:
        return match.span()
    if len(lowered) != len(text):
        return None
    ql = q.lower()
    matcher = difflib.SequenceMatcher(None, lowered, ql, autojunk=False)
    block = matcher.find_longest_match(0, len(lowered), 0, len(ql))
    if block.size < 4:
        return None
    best: tuple[float, int, int] | None = None
    base = block.a - block.b
    for shift in range(-3, 4):
        for extra in range(-3, 4):
            s = max(0, base + shift)
            e = min(len(text), s + len(ql) + extra)
            ratio = difflib.SequenceMatcher(None, lowered[s:e], ql, autojunk=False).ratio()
            if best is None or ratio > best[0]:
                best = (ratio, s, e)
    if best is None or best[0] < min_ratio:
        return None
    _, s, e = best
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


# --------------------------------------------------------------------------- merging


def clean_keyword(tag: str, keyword: Any) -> str:
    """The keyword stripped; '' when it only says "unknown" (LOCATION levels too)."""
    text = str(keyword if keyword is not None else "").strip()
    if text.strip("[]()").strip().lower() in _NOT_INFERABLE:
        return ""
    if tag == "LOCATION" and "/" in text:
        parts = [p.strip() for p in text.split("/")]
        parts = [p for p in parts if p and p.strip("[]()").lower() not in _NOT_INFERABLE]
        text = " / ".join(parts)
    return text


def _certainty(value: Any) -> int:
    try:
        return max(0, min(5, int(value)))
    except (TypeError, ValueError):
        return 0


def _merge(
    text: str,
    stage_a: list[dict[str, Any]],
    answers: list[tuple[tuple[str, ...], dict[str, Any] | None]],
    warnings: list[str],
) -> tuple[list[Subject], int]:
    """SPIA subjects from Stage A plus every Stage B answer; returns (subjects, unlocated)."""
    subjects: dict[int, Subject] = {}
    for item in stage_a:
        sid = int(item["id"])
        if sid in subjects:
            warnings.append(f"Stage A listed subject id {sid} twice; kept the first")
            continue
        subjects[sid] = Subject(id=sid, description=str(item.get("description", "")).strip())
    unlocated = 0
    for tags, answer in answers:
        for item in (answer or {}).get("subjects", []):
            sid = int(item["id"])
            if sid not in subjects:
                warnings.append(f"Stage B returned subject {sid} unknown to Stage A; added it")
                subjects[sid] = Subject(id=sid, description=str(item.get("description", "")))
            subject = subjects[sid]
            for raw in item.get("piis", []):
                tag = raw.get("tag")
                if tag not in tags:
                    continue
                keyword = clean_keyword(tag, raw.get("keyword"))
                certainty = _certainty(raw.get("certainty"))
                if not keyword or certainty == 0:
                    continue
                same = next(
                    (
                        p
                        for p in subject.piis
                        if p.tag == tag and p.keyword.lower() == keyword.lower()
                    ),
                    None,
                )
                evidence: list[Evidence] = []
                quote = str(raw.get("evidence") or "")
                if quote.strip():
                    span = locate_quote(text, quote)
                    if span is None:
                        unlocated += 1
                    else:
                        evidence.append(Evidence(span[0], span[1], text[span[0] : span[1]]))
                reasoning = _reasoning(raw.get("reasoning"))
                if same is not None:
                    same.certainty = max(same.certainty, certainty)
                    same.evidence.extend(e for e in evidence if e not in same.evidence)
                    if same.explanation is None and reasoning:
                        same.explanation = Explanation("llm", reasoning, list(same.evidence))
                    continue
                explanation = Explanation("llm", reasoning, list(evidence)) if reasoning else None
                subject.piis.append(PII(tag, keyword, certainty, 0, evidence, explanation))
    return [subjects[k] for k in sorted(subjects)], unlocated


#: Longest model reasoning kept as an explanation (characters).
MAX_REASONING = 400


def _reasoning(value: Any) -> str:
    """The model's reasoning for one value as one plain line ('' when absent)."""
    text = " ".join(str(value if value is not None else "").split())
    return text if len(text) <= MAX_REASONING else text[: MAX_REASONING - 1].rstrip() + "…"


def render_subjects(stage_a: list[dict[str, Any]]) -> str:
    """Stage A subjects as the data block given to Stage B."""
    lines = [f"Subject {int(s['id'])}: {str(s.get('description', '')).strip()}" for s in stage_a]
    return data_block("subjects", "\n".join(lines))


# --------------------------------------------------------------------------- adversary


class LLMAdversary:
    """SPIA two-stage adversary: Stage A subject identification, CODE and NON-CODE inference."""

    name = "llm"
    display_name = "LLM adversary (SPIA two-stage)"
    is_local = False
    needs_backbone = True
    description = (
        "The SPIA protocol's adversary: an LLM finds every person in the text, then infers the "
        "15 PII tags of each with a certainty, a verbatim evidence quote and a short reasoning "
        "(3 calls per text)."
    )

    def __init__(
        self,
        llm: LLM | None = None,
        *,
        connection: LLMConnection | None = None,
        temperature: float | None = 0.1,
        max_tokens: int | None = None,
        parallel: bool = True,
    ) -> None:
        self.llm = resolve(llm, connection)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.parallel = parallel
        self.prompts = {
            key: load_prompt(key)
            for key in ("subject_identification", "code_inference", "non_code_inference")
        }

    @property
    def prompt_versions(self) -> dict[str, str]:
        return {k: p.version_id for k, p in self.prompts.items()}

    def _ask(self, key: str, schema: dict[str, Any], budget: int, **values: str) -> dict[str, Any]:
        prompt = self.prompts[key]
        response = self.llm.complete(
            prompt.render(**values),
            schema=schema,
            temperature=self.temperature,
            max_tokens=self.max_tokens or budget,
            prompt_version=prompt.version_id,
        )
        return response.parsed

    def infer(self, text: str) -> InferenceResult:
        document = data_block("document", text)
        trace: dict[str, Any] = {
            "model": f"{self.llm.provider}/{self.llm.model}",
            "prompt_versions": self.prompt_versions,
        }
        result = InferenceResult([], self.name, trace)
        try:
            stage_a = self._ask(
                "subject_identification", SUBJECTS_SCHEMA, budgets.SUBJECTS, document=document
            )
        except LLMError as exc:
            result.fail("adversary.subjects", str(exc))
            result.warnings.append(f"adversary.subjects failed: {exc}")
            return result
        listed = stage_a["subjects"]
        trace["stage_a"] = stage_a
        if not listed:
            return result
        subjects_block = render_subjects(listed)
        jobs = {
            "code": ("code_inference", CODE_SCHEMA, {}),
            "non_code": (
                "non_code_inference",
                NON_CODE_SCHEMA,
                {
                    "reference_date": _long_date(),
                    "sex_values": _quoted(SEX_VALUES),
                    "education_values": _quoted(EDUCATION_VALUES),
                    "relationship_values": _quoted(RELATIONSHIP_VALUES),
                },
            ),
        }

        def run(job: str) -> dict[str, Any] | LLMError:
            key, schema, extra = jobs[job]
            try:
                return self._ask(
                    key,
                    schema,
                    budgets.profile(len(listed)),
                    document=document,
                    subjects=subjects_block,
                    **extra,
                )
            except LLMError as exc:
                return exc

        if self.parallel:
            # submit + result, not map: map cancels the second job when the first raises, and
            # batch mode (BatchPending) needs both requests made in the same round
            with ThreadPoolExecutor(max_workers=2) as pool:
                futures = {job: pool.submit(run, job) for job in jobs}
                outcomes = {job: future.result() for job, future in futures.items()}
        else:
            outcomes = {job: run(job) for job in jobs}
        answers: list[tuple[tuple[str, ...], dict[str, Any] | None]] = []
        for job, tags in (("code", CODE_TAGS), ("non_code", NON_CODE_TAGS)):
            outcome = outcomes[job]
            if isinstance(outcome, LLMError):
                result.fail(f"adversary.{job}", str(outcome))
                result.warnings.append(f"{job} inference failed: {outcome}")
                answers.append((tags, None))
            else:
                trace[job] = outcome
                answers.append((tags, outcome))
        result.subjects, unlocated = _merge(text, listed, answers, result.warnings)
        trace["unlocated_evidence"] = unlocated
        return result


def _long_date() -> str:
    """The SPIA reference date as "September 1, 2025"."""
    return f"{REFERENCE_DATE:%B} {REFERENCE_DATE.day}, {REFERENCE_DATE.year}"


def _quoted(values: tuple[str, ...]) -> str:
    return ", ".join(json.dumps(v) for v in values)


def inference_failures(result: InferenceResult) -> list[dict[str, str]]:
    """The failed stages of an LLM inference (empty when every call succeeded)."""
    return [{"stage": n.stage, "reason": n.message} for n in result.failures]


if "llm" not in ADVERSARIES:  # the registry may register a lazy factory for it
    ADVERSARIES.register("llm")(LLMAdversary)
