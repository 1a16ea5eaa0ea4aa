"""Route a question to a calculator and fill its arguments from the words.

Rules first (a few cue words per tool), then the deadline catalogue's own titles and
descriptions (data, not code) pick the rule. When a calculator needs a value the
question lacks, the planner asks for it; when the question only asks "how long",
without a date to count from, it is a lookup and the passage answers it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import partial
from typing import Any

from assistant.settings import ranking
from assistant.answering import roles, slots
from assistant.answering.formatting import fmt_date, fmt_money
from assistant.retrieval.expansion import expand
from assistant.retrieval.lexical import stems
from assistant.tools.registry import all_tools, run_tool
from assistant.types import ToolOutput

GENERIC_EVENT_STEMS = stems("date day time the of or and was were is")

TIME_Q = re.compile(
    r"\b(when|deadline|by what date|what date|how long|how many (?:days|hours)|due|how soon|expire|"
    r"valid until|last day|latest|until|by when|which dates|what dates|between which)\b", re.I,
)


@dataclass
class Missing:
    question: str
    needs_municipality: bool = False
    slot: str | None = None  # the value asked for
    candidates: tuple[str, ...] = ()  # the spans that compete for it, verbatim


@dataclass(frozen=True)
class RouteContext:
    """What one request routes with: the words of this turn and the question's vector.
    Made per request and passed down: the router keeps no per-request state."""

    current: str
    vector: Any = None
    query: Any = None  # the reading.Query of the turn


@dataclass
class Routed:
    tool: str
    arguments: dict[str, Any]
    municipality: str | None
    summarize: Callable[[ToolOutput], str]
    follow: list["Routed"] = field(default_factory=list)  # further calculators for the same answer
    # a checklist calculator answering one of its figures: the checks the lead states (their
    # provisions are the answer's citations; every check stays in the tool call's result)
    focus: tuple[str, ...] = ()
    # arguments the question did not give, with the default used and why ("opening_date": "today")
    defaults: dict[str, str] = field(default_factory=dict)
    # arguments worked out from several values the user wrote ("hours": "2 hours x 3 occasions")
    derived: dict[str, str] = field(default_factory=dict)
    # words that tie a value to an argument, where the argument's own name does not say it
    # (a deadline's event: "the street excavation starts")
    cues: dict[str, str] = field(default_factory=dict)
    # the slot each argument was read from, where a reading of roles chose it
    sources: dict[str, Any] = field(default_factory=dict)

    def citations(self, result: ToolOutput) -> list:
        checks = getattr(result, "checks", None) or []
        focused = []
        for c in checks:
            if c.requirement in self.focus and c.citation not in focused:
                focused.append(c.citation)
        return focused or list(result.citations)

    def run(self) -> ToolOutput:
        return run_tool(self.tool, self.arguments)

    def summary(self, result: ToolOutput) -> str:
        return self.summarize(result)


class ToolRouter:
    def __init__(self, embedder=None):
        self.tools = all_tools()
        self.embedder = embedder
        self._rule_vectors = None  # a cache of the rule catalogue's vectors, the same for every request
        self._lock = threading.Lock()

    def _rule_similarity(self, ctx: RouteContext) -> dict[str, float]:
        """Cosine similarity of the question to each deadline rule's description
        (the rule catalogue is embedded once, on first use)."""
        if self.embedder is None or ctx.vector is None:
            return {}
        import numpy as np

        from assistant.tools.deadlines import rules

        with self._lock:
            if self._rule_vectors is None:
                ids = list(rules())
                texts = [f"{r.title}. {r.obligation} Counted from: {r.event}." for r in rules().values()]
                self._rule_vectors = (ids, np.asarray(self.embedder.embed_documents(texts), dtype=np.float32))
        ids, mat = self._rule_vectors
        sims = mat @ np.asarray(ctx.vector, dtype=np.float32)
        return dict(zip(ids, (float(x) for x in sims)))

    def route(self, q: str, muni: str | None, current: str | None = None, vector=None,
              query=None) -> Routed | Missing | None:
        """``q`` is the whole question (with the earlier turn's topic for a follow-up);
        ``current`` the words of this turn, whose values (dates, money) come first."""
        ctx = RouteContext(current=current or q, vector=vector, query=query)
        for rule in (self._address, self._grid, self._surcharge, self._emergency, self._insurance_check,
                     self._charges, self._specs, self._bonds, self._deadline):
            out = rule(q, muni, ctx)
            if isinstance(out, Routed) and muni and muni not in self.tools[out.tool].municipalities:
                continue  # no calculator holds this municipality's figures: the passages answer
            if out is not None:
                return out
        return None

    def _serves(self, tool: str, muni: str | None) -> bool:
        """No municipality named yet, or the calculator's data covers the one named."""
        return muni is None or muni in self.tools[tool].municipalities

    def _only_municipality(self, tool: str, muni: str | None) -> str | None:
        """The municipality a calculator serves: the question's, or the one its data holds."""
        served = self.tools[tool].municipalities
        return muni if muni in served else (served[0] if len(served) == 1 else muni)

    # -- surcharge ----------------------------------------------------------------
    def _surcharge(self, q: str, muni: str | None, ctx: RouteContext):
        tool = "street_opening_surcharge"
        if tool not in self.tools or not re.search(r"\bsurcharge|\bextra (?:fee|charge)\b", q, re.I):
            return None
        if muni is None:
            return Missing(_which(f"Only {_names_of(self.tools[tool].municipalities)} levies a surcharge by the age "
                                  "of the pavement."), needs_municipality=True)
        reading = roles.surcharge_values(ctx.query) if ctx.query is not None else roles.SurchargeReading()
        asks_amount = re.search(r"\b(how much|what(?:'s| is) (?:the|my|our) surcharge|what surcharge (?:do|will|would|applies to) "
                                r"(?:we|i|us|our|my))\b", q, re.I)
        if reading.ambiguous is not None and muni in self.tools[tool].municipalities:
            return Missing(reading.ambiguous.question(), slot=reading.ambiguous.role,
                           candidates=tuple(c.span.text for c in reading.ambiguous.candidates))
        paved = reading.paving
        if paved is None:
            # does this municipality's rule need the paving date at all? (one without a surcharge does not)
            probe = run_tool(tool, {"municipality": muni, "opening_date": slots.today().isoformat()})
            if probe.ok or "final_paving_date" not in (probe.error or ""):
                return Routed(tool, {"municipality": muni, "opening_date": slots.today().isoformat()}, muni,
                              _summary_surcharge, defaults={"opening_date": "today (the rule does not depend on it)"})
        if muni in self.tools[tool].municipalities and paved is None:
            if asks_amount:
                return Missing("the date of the street's final paving (for example “paved last June” or “paved two years ago”).",
                               slot="final paving date")
            return None  # "is there a surcharge…": the table answers it
        opening = reading.opening.day if reading.opening is not None else slots.today()
        args: dict[str, Any] = {"municipality": muni, "opening_date": opening.isoformat()}
        defaults = {} if reading.opening is not None else {"opening_date": f"today, {fmt_date(opening)} (no opening date given)"}
        derived: dict[str, str] = {}
        if paved is not None:
            args["final_paving_date"] = paved.value
            if paved.precision in ("year", "month"):
                # the words name a month or a year, not a day: the figure stands only if it is the
                # same for the first and the last day they may mean
                first, last = _period(paved)
                ends = [run_tool(tool, {**args, "final_paving_date": d.isoformat(),
                                        **({"permit_fee": str(reading.fee.number)} if reading.fee else {})}) for d in (first, last)]
                if getattr(ends[0], "amount_text", None) != getattr(ends[1], "amount_text", None) or not ends[0].ok:
                    return Missing(f"the day of the final paving: “{paved.span.text}” names no day, and the surcharge "
                                   "differs within it.", slot="final paving date", candidates=(paved.span.text,))
                derived["final_paving_date"] = (f"“{paved.span.text}” (read as its first day; any day of it gives the "
                                                "same surcharge)")
        if reading.fee is not None:
            args["permit_fee"] = str(reading.fee.number)
        sources = {k: v for k, v in (("opening_date", reading.opening), ("final_paving_date", paved),
                                     ("permit_fee", reading.fee)) if v is not None}
        return Routed(tool, args, muni, _summary_surcharge, defaults=defaults, derived=derived, sources=sources)

    # -- specification checks -------------------------------------------------------
    def _specs(self, q: str, muni: str | None, ctx: RouteContext):
        low = q.lower()
        feet = slots.lengths(q, "ft")
        inches = slots.lengths(q, "in")
        # Brandon: building materials on the sidewalk and the street
        if "obstruction_check" in self.tools and re.search(r"building materials|materials|lumber|dumpster", low) \
                and re.search(r"sidewalk|walk", low) and feet:
            args = {"municipality": self._only_municipality("obstruction_check", muni), "situation": "building_materials"}
            sw = slots.length_near(q, ("sidewalk", "walk"), "ft")
            st = slots.length_near(q, ("street", "road", "traveled"), "ft")
            if sw is not None:
                args["sidewalk_width_ft"] = str(sw)
            if st is not None:
                args["street_width_ft"] = str(st)
            if len(args) > 2:
                return Routed("obstruction_check", args, args["municipality"], _summary_obstruction)
        # Brandon: sidewalk cross slope for a given width
        if "sidewalk_dimension_check" in self.tools and re.search(r"\b(drop|slope|fall|pitch)\b", low) \
                and re.search(r"sidewalk|walk", low) and feet and self._serves("sidewalk_dimension_check", muni):
            use = "commercial" if re.search(r"commercial|business|store|shop", low) else "residential"
            only = self._only_municipality("sidewalk_dimension_check", muni)
            widths = [x for x in (ctx.query.of("length") if ctx.query is not None else []) if x.unit == "ft"]
            if len(widths) > 1:
                return Missing("the width of the walk: is it " + " or ".join(f"“{x.span.text}”" for x in widths) + "?",
                               slot="width", candidates=tuple(x.span.text for x in widths))
            width, sources = (widths[0].number, {"width_ft": widths[0]}) if widths else (feet[0], {})
            return Routed("sidewalk_dimension_check", {"municipality": only, "use": use, "width_ft": roles.as_number(width)},
                          only, _summary_sidewalk_drop, sources=sources)
        # Brandon: pavement patch depth
        if "pavement_patch_check" in self.tools and re.search(r"\bpatch|replacement|restor", low) and inches \
                and re.search(r"existing|current|old", low) and self._serves("pavement_patch_check", muni):
            pavement = "concrete" if "concrete" in low else "bituminous"
            depth = slots.length_near(q, ("existing", "thick", "asphalt", "pavement", "concrete"), "in") or inches[0]
            only = self._only_municipality("pavement_patch_check", muni)
            return Routed("pavement_patch_check", {"municipality": only, "pavement": pavement,
                                                   "existing_pavement_depth_in": str(depth)}, only, _summary_patch)
        # Brandon: defective blocks
        m = re.search(r"\b(\d{1,4})\s+(?:out\s+)?of\s+(?:the\s+)?(\d{1,4})\s+(?:sidewalk\s+)?(?:blocks|squares|slabs)", low)
        if "sidewalk_defect_check" in self.tools and m:
            only = self._only_municipality("sidewalk_defect_check", muni)
            return Routed("sidewalk_defect_check", {"municipality": only, "defective_blocks": int(m.group(1)),
                                                    "total_blocks": int(m.group(2))}, only, _summary_defects)
        # Delafield: driveway slope
        if "driveway_check" in self.tools and re.search(r"driveway|drive\b", low) and \
                re.search(r"slope|steep|grade|rise|rises|climb|climbs", low) and self._serves("driveway_check", muni):
            rr = re.search(r"(?:rises|climbs|rise|climb|drops?)\s+(\d+(?:\.\d+)?)\s*(?:feet|foot|ft)\D{0,20}?over\s+(?:a\s+)?(\d+(?:\.\d+)?)", low)
            pct = re.search(r"(\d+(?:\.\d+)?)\s*(?:%|percent)", low)
            args = {"municipality": self._only_municipality("driveway_check", muni)}
            if rr and "rise_ft" in self.tools["driveway_check"].input_model.model_fields:
                args.update(rise_ft=rr.group(1), run_ft=rr.group(2))
            elif pct:
                args["slope_percent"] = pct.group(1)
            if len(args) > 1:
                return Routed("driveway_check", args, args["municipality"], _summary_driveway)
        # Delafield: heavy vehicles
        weights = ctx.query.of("weight") if ctx.query is not None else []
        if "heavy_vehicle_check" in self.tools and weights and self._serves("heavy_vehicle_check", muni):
            if len({w.value for w in weights}) > 1:
                return Missing("the vehicle's gross weight: is it " + " or ".join(f"“{w.span.text}”" for w in weights)
                               + "?", slot="gross weight", candidates=tuple(w.span.text for w in weights))
            args = {"municipality": self._only_municipality("heavy_vehicle_check", muni),
                    "gross_weight_tons": roles.as_number(weights[0].number),
                    "lugged_wheels": bool(re.search(r"lug|cleat|track", low)),
                    "temporary_limit_posted": bool(re.search(r"posted|temporary|weight limit|limit is", low))}
            return Routed("heavy_vehicle_check", args, args["municipality"], _summary_heavy,
                          sources={"gross_weight_tons": weights[0]})
        # Delafield: road construction standards
        if "road_construction_check" in self.tools and self._serves("road_construction_check", muni) and \
                re.search(r"stone|aggregate|lift|too thin|deficien|base course|gravel base|road base", low):
            args: dict[str, Any] = {"municipality": self._only_municipality("road_construction_check", muni),
                                    "wet_area": bool(re.search(r"\bwet\b", low))}
            thin = re.search(r"(\d*\.?\d+)\s*(?:inch|in\.?|\")\s*(?:too thin|short|deficien)", low)
            if thin:
                args["final_deficiency_in"] = thin.group(1)
            fields = self.tools["road_construction_check"].input_model.model_fields
            args = {k: v for k, v in args.items() if k in fields}
            focus = road_focus(low, thin is not None)
            return Routed("road_construction_check", args, args.get("municipality"), partial(_summary_road, focus=focus),
                          focus=ROAD_FOCUS[focus])
        return None

    def _grid(self, q: str, muni: str | None, ctx: RouteContext):
        if "grid_block_line" not in self.tools or not re.search(r"block line", q, re.I):
            return None
        m = re.search(r"(?:first|top of the|end of the|edge of the)?\s*(\w+)\s+(?:rows?|sections?)", q, re.I)
        n = None
        if m:
            word = m.group(1).lower()
            ordinals = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                        "eighth": 8, "ninth": 9, "tenth": 10}
            n = ordinals.get(word) or slots._count(word)
        mm = re.search(r"first (\w+) (?:sections|rows)", q, re.I)
        if mm:
            n = slots._count(mm.group(1)) or n
        if n is None:
            return None
        direction = "north" if re.search(r"\bnorth", q, re.I) else "south" if re.search(r"\bsouth", q, re.I) else "west"
        return Routed("grid_block_line", {"direction": direction, "sections": n},
                      self._only_municipality("grid_block_line", muni), _summary_grid)

    # -- emergency excavation ------------------------------------------------------
    def _emergency(self, q: str, muni: str | None, ctx: RouteContext):
        tool = "emergency_excavation_deadlines"
        if tool not in self.tools or not slots.is_emergency(q) or not self._serves(tool, muni):
            return None
        if not re.search(r"\b(apply|application|permit|fee|file|filed|filing|waive|waived)\b", q, re.I):
            return None
        when = slots.event_moment(ctx.current) or slots.event_moment(q)
        if when is None:
            return None
        if muni is None:
            return Missing(_which(f"Only {_names_of(self.tools[tool].municipalities)} sets emergency excavation "
                                  "deadlines."), needs_municipality=True)
        day = when.date() if hasattr(when, "date") else when
        sources = {}
        if ctx.query is not None and ctx.query.of("date"):
            chosen = roles.event_date(ctx.query, "the emergency excavation: dig dug excavated opened started work")
            if isinstance(chosen, roles.Ambiguous):
                return Missing(chosen.question(), slot=chosen.role,
                               candidates=tuple(c.span.text for c in chosen.candidates))
            if chosen is not None:
                day, sources = chosen.day, {"excavation": chosen}
        only = self._only_municipality(tool, muni)
        return Routed(tool, {"municipality": only, "excavation": day.isoformat()}, only, _summary_emergency,
                      sources=sources)

    # -- a contractor's certificate of insurance -------------------------------------
    def _insurance_check(self, q: str, muni: str | None, ctx: RouteContext):
        tool = "insurance_certificate_check"
        if tool not in self.tools or not re.search(r"\b(policy|certificate|coverage|insurance|insured)\b", q, re.I):
            return None
        limits = slots.insurance_limits(q)
        if not limits:
            return None
        if muni is None:
            return Missing(_which("Their insurance limits differ."), needs_municipality=True)
        # the municipality's own permit that asks for a certificate (the calculator's data says which)
        args: dict[str, Any] = {"municipality": muni, **{k: str(v) for k, v in limits.items()}}
        return Routed(tool, args, muni, _summary_insurance)

    # -- deadlines ----------------------------------------------------------------
    def _deadline(self, q: str, muni: str | None, ctx: RouteContext):
        if "deadline" not in self.tools or not TIME_Q.search(q):
            return None
        event = slots.event_moment(ctx.current) or slots.event_moment(q)
        year = re.search(r"\b(?:in|for|during)\s+(20\d\d)\b", q)
        if event is None and not year:
            return None  # "how long do I have…" without a date: the passage answers it
        from assistant.tools.deadlines import rules

        # the numbers of a date say when, not what: "May 30" must not meet "within 30 days"
        # ("60 days" still meets "60 days")
        q_stems = stems(slots.without_dates(q))
        # the event is what the question dates ("We start ... on May 30"), not all it says
        event_stems = stems(slots.without_dates(expand(slots.dated_clause(q)))) - GENERIC_EVENT_STEMS
        sims = self._rule_similarity(ctx)
        scored = []
        for rule in rules().values():
            if muni and rule.municipality != muni:
                continue
            if event is None and not (rule.count.kind == "annual_date" and "following year" in rule.title):
                continue  # a year alone dates only a yearly deadline for the following year
            words = stems(f"{rule.title} {rule.obligation} {rule.event}")
            title_words = stems(rule.title)
            # the event the question dates ("we moved in on May 14") picks between rules that
            # count the same period from different events (occupancy vs building permit)
            event_words = len(event_stems & stems(rule.event))
            score = (len(q_stems & words) + 1.5 * len(q_stems & title_words) + ranking().event_weight * event_words
                     + 12.0 * max(sims.get(rule.id, 0.0) - 0.2, 0.0))
            if rule.id.endswith("emergency_apply") and slots.is_emergency(q):
                score += 3
            scored.append((score, rule))
        if not scored:
            return None
        scored.sort(key=lambda t: -t[0])
        best_score, best = scored[0]
        if best_score < 3:
            return None
        if muni is None:
            others = [r for s, r in scored if r.municipality != best.municipality and s >= best_score - 1]
            if others:
                return Missing(_which("Their deadlines differ."), needs_municipality=True)
        if event is None:
            # "curb and gutter in 2028": the request is due in the year before, and not before today
            event = max(slots.today(), date(int(year.group(1)) - 1, 1, 1))
        sources = {}
        if ctx.query is not None and ctx.query.of("date"):
            chosen = roles.event_date(ctx.query, best.event)
            if isinstance(chosen, roles.Ambiguous):
                return Missing(chosen.question(), slot=chosen.role,
                               candidates=tuple(c.span.text for c in chosen.candidates))
            if chosen is not None and chosen.precision == "year" and year is not None \
                    and slots.event_moment(ctx.current) is None and slots.event_moment(q) is None:
                chosen = None  # "curb and gutter in 2028": the yearly rule's own default below
            if chosen is not None:
                if chosen.precision != "day":
                    return Missing(f"the day of {best.event.rstrip('.')}: “{chosen.span.text}” names no single day.",
                                   slot="event date", candidates=(chosen.span.text,))
                if isinstance(event, datetime):
                    event = datetime.combine(chosen.day, event.time())
                else:
                    event = chosen.day
                sources["event"] = chosen
        args = {"rule": best.id, "event": event.isoformat(), "emergency": slots.is_emergency(q)}
        routed = Routed("deadline", args, best.municipality, _summary_deadline, cues={"event": best.event},
                        sources=sources)
        if year and slots.event_moment(ctx.current) is None and slots.event_moment(q) is None:
            routed.defaults["event"] = f"{fmt_date(event)} (the question names only the year {year.group(1)})"
        return routed

    # -- bonds and insurance ------------------------------------------------------
    def _bonds(self, q: str, muni: str | None, ctx: RouteContext):
        if "bond_insurance_requirements" not in self.tools:
            return None
        if not re.search(r"\b(bonds?|insurance|insured|certificate|indemnity|liability)\b", q, re.I):
            return None
        if not re.search(r"\b(what|which|how much|need|required|requirements?|do i|must)\b", q, re.I):
            return None
        if re.search(r"performance bond|annual bond|guarantee|surety|small contracts?|application fee|renewal fee|"
                     r"permit fee|how (?:large|much)|what amount", q, re.I) and not re.search(r"\$\s?\d", q):
            return None  # one figure asked for: the passage answers it (or says who sets it)
        if muni is None:
            return Missing(_which("Their bond and insurance rules differ."), needs_municipality=True)
        low = q.lower()
        permit = permit_for(muni, low)
        applicant = ("village_public_utility" if re.search(r"village(?:-owned)? (?:public )?utility", low)
                     else "public_utility" if "utility" in low else "contractor")
        return Routed("bond_insurance_requirements",
                      {"municipality": muni, "permit_type": permit, "applicant": applicant},
                      muni, _summary_generic)

    # -- charges ------------------------------------------------------------------
    def _charges(self, q: str, muni: str | None, ctx: RouteContext):
        amounts = slots.money_all(q)
        if not amounts:
            return None
        low = q.lower()
        if "sidewalk_assessment" in self.tools and re.search(r"sidewalk", low) and re.search(r"assess|pay|share|cost|owe", low):
            kind = ("new_one_side_none_either" if re.search(r"new sidewalk|neither side|no sidewalks?", low)
                    else "defective_replacement" if re.search(r"defect|replac", low) else "reconstruction")
            args = {"municipality": self._only_municipality("sidewalk_assessment", muni), "kind": kind,
                    "cost": str(amounts[0])}
            if kind == "new_one_side_none_either":
                n = slots.counts(q)
                same_both_sides = len(n) == 1 and re.search(r"\bon each side|\bon both sides", low)
                if same_both_sides:
                    n = [n[0], n[0]]
                if len(n) >= 2:
                    args["owners_on_sidewalk_side"], args["owners_on_opposite_side"] = n[0], n[1]
                else:
                    return Missing("how many property owners are on each side of the street.")
            routed = Routed("sidewalk_assessment", args, args["municipality"], _summary_generic)
            if kind == "new_one_side_none_either" and same_both_sides:
                routed.derived["owners_on_opposite_side"] = f"{n[1]} (the same number: “on each side”)"
            return routed
        if "village_repair_bill" in self.tools and re.search(r"labor|labour|materials|equipment", low) and len(amounts) >= 1:
            parts = slots.labelled_money(q, ("labor", "labour", "materials", "equipment"))
            args = {"municipality": self._only_municipality("village_repair_bill", muni),
                    "labor_cost": str(parts.get("labor") or parts.get("labour") or 0),
                    "materials_cost": str(parts.get("materials") or 0),
                    "equipment_cost": str(parts.get("equipment") or 0)}
            return Routed("village_repair_bill", args, args["municipality"], _summary_generic)
        if "asphalt_service_settlement" in self.tools and re.search(r"asphalt|pav(?:e|ed|ing)|blacktop", low) and re.search(r"deposit", low) and len(amounts) >= 2:
            only = self._only_municipality("asphalt_service_settlement", muni)
            settled = roles.settlement_values(ctx.query) if ctx.query is not None else None
            if settled is not None and settled.ambiguous is not None:
                return Missing(settled.ambiguous.question(), slot=settled.ambiguous.role,
                               candidates=tuple(c.span.text for c in settled.ambiguous.candidates))
            if settled is not None and settled.deposit is not None:
                routed = Routed("asphalt_service_settlement",
                                {"municipality": only, "deposit": str(settled.deposit.number),
                                 "actual_cost": str(settled.actual.number)}, only, _summary_generic,
                                sources={"deposit": settled.deposit, "actual_cost": settled.actual})
                amounts = [settled.deposit.number, settled.actual.number]
            else:
                routed = Routed("asphalt_service_settlement",
                                {"municipality": only, "deposit": str(amounts[0]), "actual_cost": str(amounts[1])},
                                only, _summary_generic)
            billed = slots.event_moment(q)
            if billed is not None and amounts[1] > amounts[0]:
                day = billed.date() if hasattr(billed, "date") else billed
                balance = _rule_ending(only, "asphalt_balance")
                if balance is not None:
                    routed.follow.append(Routed("deadline", {"rule": balance, "event": day.isoformat()},
                                                only, _summary_deadline))
            return routed
        if "snow_removal_charge" in self.tools and re.search(r"snow|ice|shovel|clear", low) and re.search(r"hour", low):
            if ctx.query is None:
                return None
            work = roles.snow_values(ctx.query)
            if work.ambiguous is not None:
                return Missing(work.ambiguous.question(), slot=work.ambiguous.role,
                               candidates=tuple(c.span.text for c in work.ambiguous.candidates))
            if work.missing is not None:
                return Missing(work.missing)
            only = self._only_municipality("snow_removal_charge", muni)
            return Routed("snow_removal_charge",
                          {"municipality": only, "employees": work.employees, "occasions": work.occasions},
                          only, _summary_generic, derived=work.derived, sources=work.sources,
                          defaults={} if work.occasions_slot else {"occasions": "1 (no number of occasions given)"})
        return None

    # -- addresses ----------------------------------------------------------------
    def _address(self, q: str, muni: str | None, ctx: RouteContext):
        if "parse_address" not in self.tools:
            return None
        m = re.search(r"\b([NSW])\s?(\d{1,3})\s+([NSW])\s?(\d{3,5})\b", q, re.I)
        if not m:
            return None
        return Routed("parse_address", {"address": m.group(0)}, self._only_municipality("parse_address", muni),
                      _summary_generic)


def _names_of(ids) -> str:
    from assistant.corpus import municipality_by_id

    names = [(m.name if (m := municipality_by_id(i)) else i) for i in ids]
    return " and ".join(f"the {n} code" for n in names)


def _which(reason: str) -> str:
    """'the Village of A or the Town of B? <reason>' from the municipalities loaded."""
    from assistant.corpus import municipalities

    return " or ".join(f"the {m.name}" for m in municipalities()) + f"? {reason}"


def _rule_ending(muni: str | None, suffix: str) -> str | None:
    from assistant.tools.deadlines import rules

    return next((r.id for r in rules().values() if r.municipality == muni and r.id.endswith(suffix)), None)


# plain words that name a permit as the calculators' data does not (general English)
PERMIT_WORDS = {"dumpster": "privilege", "building materials": "privilege", "construction materials": "privilege",
                "encumb": "privilege", "dig": "excavation opening", "trench": "excavation opening",
                "driveway": "driveway culvert", "curb": "curb gutter"}


def permit_for(muni: str, low: str) -> str:
    """The municipality's permit (from the bond calculator's data) whose words the question
    shares most; its first permit when none."""
    from assistant.tools.bonds import _data

    words = stems(low + " " + " ".join(v for k, v in PERMIT_WORDS.items() if k in low)) - stems("permit street the a")
    best, score = None, 0
    for e in _data()["permits"]:
        if e["municipality"] != muni:
            continue
        own = stems(" ".join([e["permit_type"].replace("_", " "), e.get("name", ""),
                              *[a.replace("_", " ") for a in e.get("aliases", [])]])) - stems("permit street")
        n = len(words & own)
        if best is None or n > score:
            best, score = e["permit_type"], n
    return best or "excavation"


def _period(slot) -> tuple[date, date]:
    """The first and last day a month or a year slot may mean."""
    d = slot.day
    if slot.precision == "year":
        return date(d.year, 1, 1), date(d.year, 12, 31)
    nxt = date(d.year + (d.month == 12), d.month % 12 + 1, 1)
    return d.replace(day=1), date.fromordinal(nxt.toordinal() - 1)


def _summary_generic(r: ToolOutput) -> str:
    return ""  # the calculator's explanation says it all


def _summary_surcharge(r) -> str:
    if not r.ok:
        return ""
    lead = f"Surcharge: **{r.amount_text}**." if r.amount_text else ""
    warn = " ".join(r.warnings) if getattr(r, "warnings", None) else ""
    return f"{lead} {warn}".strip()


def _num(x) -> str:
    from decimal import Decimal

    d = Decimal(str(x)).normalize()
    return format(d, "f")


def _summary_obstruction(r) -> str:
    parts = []
    if getattr(r, "max_sidewalk_obstruction_ft", None) is not None:
        parts.append(f"at most **{_num(r.max_sidewalk_obstruction_ft)} feet** of the sidewalk")
    if getattr(r, "max_street_obstruction_ft", None) is not None:
        parts.append(f"at most **{_num(r.max_street_obstruction_ft)} feet** of the traveled street")
    return ("Building materials may cover " + " and ".join(parts) + ".") if parts else ""


def _summary_sidewalk_drop(r) -> str:
    drop = getattr(r, "min_cross_slope_drop_in", None)
    return f"The walk must fall at least **{_num(drop)} inches** toward the curb across its width." if drop is not None else ""


def _summary_patch(r) -> str:
    parts = []
    if getattr(r, "required_depth_in", None) is not None:
        parts.append(f"the patch must be at least **{_num(r.required_depth_in)} inches** deep")
    if getattr(r, "backfill_below_surface_in", None) is not None:
        parts.append(f"the backfill stops **{_num(r.backfill_below_surface_in)} inches** below the original surface")
    return ("For this pavement " + "; ".join(parts) + ".") if parts else ""


def _summary_defects(r) -> str:
    if getattr(r, "defective_percent", None) is None:
        return ""
    verdict = "the entire sidewalk is replaced" if r.whole_replacement_required else "the whole sidewalk is not replaced"
    return f"**{_num(r.defective_percent)}%** of the blocks are defective, so {verdict}."


def _summary_driveway(r) -> str:
    slope = getattr(r, "slope_percent_computed", None)
    failed = "slope" in (r.failures or [])
    lead = f"The slope is **{_num(slope)}%**" if slope is not None else "The slope"
    return f"{lead}, which {'exceeds' if failed else 'is within'} the 12% limit." if r.all_pass is not None or failed else ""


def _summary_heavy(r) -> str:
    over = getattr(r, "tons_over_limit", None)
    bits = []
    if r.permit_required:
        bits.append("a Town permit naming the route is required")
    if over and getattr(r, "exceeds_temporary_limit", None):
        bits.append(f"the vehicle is **{_num(over)} tons** over the posted temporary limit; only a special permit "
                    "(for an emergency) allows it while the limit is in effect")
    elif over:
        bits.append(f"on a road where a temporary limit is posted it would be **{_num(over)} tons** over it, and "
                    "could run there only with a special permit (for an emergency)")
    return ("For this vehicle " + "; ".join(bits) + ".") if bits else ""


# which figure of the road standards a question asks: the checks whose provisions it cites
ROAD_FOCUS = {
    "aggregate": ("aggregate_base", "aggregate_lifts", "wet_area_stone"),
    "lift": ("bituminous_lift", "initial_lift"),
    "corrective": ("final_thickness",),
}


def road_focus(question: str, deficiency_given: bool) -> str:
    """"How thick is the first bituminous lift?" asks the lift, not the stone under it."""
    if deficiency_given:
        return "corrective"
    if re.search(r"bituminous|asphalt|blacktop|\blifts?\b", question, re.I) and \
            not re.search(r"aggregate|stone|gravel|base course", question, re.I):
        return "lift"
    return "aggregate"


def _summary_road(r, focus: str = "aggregate") -> str:
    if focus == "corrective" and getattr(r, "corrective_lift_in", None) is not None:
        n = r.corrective_lift_in
        return f"The standards require a corrective lift of **{_num(n)} inch{'es' if n != 1 else ''}** over the entire roadway."
    if focus == "lift" and getattr(r, "required_initial_lift_in", None) is not None:
        return (f"The first lift of bituminous concrete is **{_num(r.required_initial_lift_in)} inches**, placed on "
                "the approved aggregate.")
    if getattr(r, "aggregate_depth_in", None) is not None:
        return f"The standards give crushed aggregate **{_num(r.aggregate_depth_in)} inches** deep in all."
    return ""


def _summary_grid(r) -> str:
    line = getattr(r, "block_line", None)
    return f"That block line is **{line}**." if line is not None else ""


def _summary_emergency(r) -> str:
    if not r.ok:
        return ""
    return (f"Apply for the excavation permit by **{fmt_date(r.apply_by)}** (the next business day) and notify the "
            f"Village office immediately. To keep the permit fee waived, file the application by "
            f"**{fmt_date(r.fee_waiver_by)}** (within two regular business days).")


def _summary_insurance(r) -> str:
    if not r.ok:
        return ""
    shorts = []
    for sf in r.shortfalls:
        m = re.search(r"\$\s?([\d,]+(?:\.\d+)?)", sf.note or "")
        amount = f" short by {fmt_money(m.group(1).replace(',', ''))}" if m else ""
        shorts.append(f"{sf.description}: required {sf.required}, shown {sf.provided}{amount}")
    if not shorts:
        return "The certificate meets every limit that could be checked." if r.compliant is not False else ""
    return "The certificate falls short: " + "; ".join(shorts) + "."


def _summary_deadline(r) -> str:
    if getattr(r, "due_at", None):
        return f"{r.obligation} Latest moment: **{fmt_date(r.due_at)}**." if r.direction == "before" else f"{r.obligation} Due by **{fmt_date(r.due_at)}**."
    if getattr(r, "due_date", None) and getattr(r, "earliest_date", None):  # a publication window
        return (f"{r.obligation} Earliest day: **{fmt_date(r.earliest_date)}**; latest day: "
                f"**{fmt_date(r.due_date)}**.")
    if getattr(r, "due_date", None):
        word = "Latest day" if r.direction == "before" else ("Last day" if r.direction != "window" else "Date")
        moved = ""
        plain = getattr(r, "unadjusted", None)
        if plain and str(plain)[:10] != r.due_date.isoformat() and r.direction == "after":
            why = ", ".join(sorted({d.reason for d in r.skipped})) if r.skipped else "a closed day"
            moved = (f" Counted plainly the period ends on {fmt_date(str(plain)[:10])}; it moves to the date above "
                     f"because of {why} (the Wisconsin rule for counting time). If the office is open that day, "
                     f"acting by {fmt_date(str(plain)[:10])} is safe either way.")
        return f"{r.obligation} {word}: **{fmt_date(r.due_date)}**.{moved}"
    if getattr(r, "direction", "") == "window" and r.window_start:
        inside = "inside" if r.in_window else "outside"
        return f"{r.obligation} That date is {inside} the window from {fmt_date(r.window_start)} to {fmt_date(r.window_end)}."
    return r.obligation


__all__ = ["ToolRouter", "Routed", "Missing", "fmt_money"]
