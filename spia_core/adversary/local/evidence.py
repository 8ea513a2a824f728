"""Findings: a candidate PII value with its certainty, hardness and evidence spans."""

from __future__ import annotations

from dataclasses import dataclass, field

from spia_core.model import PII, Evidence, Explanation


def span(text: str, start: int, end: int) -> Evidence:
    """Evidence for ``text[start:end]`` (offsets clamped into the text)."""
    start = max(0, min(start, len(text)))
    end = max(start, min(end, len(text)))
    return Evidence(start=start, end=end, text=text[start:end])


@dataclass
class Finding:
    """One candidate value for one tag of one subject."""

    tag: str
    keyword: str
    certainty: int
    hardness: int = 1
    evidence: list[Evidence] = field(default_factory=list)
    rule: str = ""  # id of the registered rule that produced it (rules.all_rules)
    explains: str = ""  # the rule's explanation template

    def to_pii(self) -> PII:
        return PII(
            tag=self.tag,
            keyword=self.keyword,
            certainty=max(1, min(5, self.certainty)),
            hardness=max(1, min(5, self.hardness)),
            evidence=list(self.evidence),
            explanation=explain(self.rule, self.explains, self.tag, self.keyword, self.evidence),
        )


def best(findings: list[Finding]) -> Finding | None:
    """The finding to keep for a tag: highest certainty, then most specific, then earliest."""
    if not findings:
        return None

    def key(f: Finding) -> tuple[int, int, int]:
        return (-f.certainty, -f.keyword.count("/"), min((e.start for e in f.evidence), default=0))

    ranked = sorted(findings, key=key)
    top = ranked[0]
    # Merge evidence from findings that agree with the winner.
    merged = list(top.evidence)
    agree = [f for f in ranked[1:] if f.keyword.lower() == top.keyword.lower()]
    for e in (e for f in agree for e in f.evidence):
        if len(merged) < 6 and all((x.start, x.end) != (e.start, e.end) for x in merged):
            merged.append(e)
    certainty = min(5, top.certainty + (1 if len(agree) >= 2 and top.certainty < 3 else 0))
    return Finding(top.tag, top.keyword, certainty, top.hardness, merged, top.rule, top.explains)


def _quote(ev: list[Evidence], limit: int = 3) -> str:
    seen: list[str] = []
    for e in ev:
        if (t := " ".join(e.text.split())) and t not in seen:
            seen.append(t if len(t) <= 60 else t[:57] + "...")
        if len(seen) >= limit:
            break
    return " and ".join(f"'{t}'" for t in seen)


def explain(
    rule_id: str, template: str, tag: str, value: str, evidence: list[Evidence]
) -> Explanation:
    """The explanation of a value: '<TAG> = <value>, because <reason> (rule <id>)'."""
    quoted = _quote(evidence)
    reason = template.format(value=value, tag=tag, evidence=quoted or "no quoted text")
    because = f"{reason}: {quoted}" if quoted and "{evidence}" not in template else reason
    text = f"{tag} = {value}, because {because} (rule {rule_id})"
    return Explanation(rule=rule_id, text=text, evidence=list(evidence))
