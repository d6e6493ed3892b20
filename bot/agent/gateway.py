"""The one door to a model: every request, hers or memory's, goes through ``Gateway``.

A request arrives with its context already built by memory. The gateway cleans
it, asks the provider (anthropic, openai-compatible, offline: one ``Model``
protocol), holds the answer to the output contract and the claim check, asks
once more told why, falls back to the offline voice, and records the call with
what became of it. Memory's shelves reach it through ``memory.asking.Asker``;
the commentator through ``say``, which also refuses a line that repeats one.

``remembering`` wires one pool's memory to one model through one gateway.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.agent.providers.base import REPLACING, Model, ModelCall, ModelError
from bot.agent.providers.offline import OfflineModel
from bot.agent.requests import Answer, KnownFacts, RoundDay
from game.events import ChatPosted, Event, LoggedEvent, RemarkPosted
from game.pool import Pool
from game.text import clean_block
from memory import declared, facts, usage
from memory.asking import Asked
from memory.context import Context, ContextBuilder
from memory.contract import Breach, Contract, common, limits
from memory.guard import named_in
from memory.keeper import MemoryConfig, MemoryKeeper, contexts_for
from memory.requests import Request
from memory.retired import retired
from memory.store import MemoryStore, open_store
from memory.utterance import told_in_confidence
from prompts import phrase, render, sections

# A capitalised word ("Livaković", "Lisboa"), a year ("a camisa de 2002") or a time of day
# ("dormir até 7h40", kept as "7:40")
NAME = re.compile(r"\b[A-ZÀ-Þ][^\W\d_]{2,}|\b(?:19|20)\d\d\b|\b\d{1,2}[:h]\d{2}\b")
LOWERCASE_WORD = re.compile(r"\b[a-zß-ÿ]{4,}\b")

# Variants of a call after a claim was refused, apart from the guard's attempts 0, 1, 2.
RETRY, OFFLINE = -1, REPLACING
OnCall = Callable[[usage.CallRecord, Context | None], None]


@dataclass(frozen=True)
class Spoken:
    """What ``Gateway.say`` found to say (None: nothing new), and the repeats refused."""

    asked: Asked | None
    refused: int = 0
    about: tuple[str, ...] = ()  # the players its final text names, her aside


class Gateway:
    def __init__(
        self,
        pool: Pool,
        store: MemoryStore,
        contexts: ContextBuilder,
        model: Model,
        config: MemoryConfig,
        fallback: Model | None = None,
        on_call: OnCall | None = None,
        meter: usage.UsageMeter | None = None,
    ) -> None:
        self.pool = pool
        self.store = store
        self.contexts = contexts
        self.model = model
        self.config = config
        self.fallback = fallback or OfflineModel(language=config.language)
        # What she says and what she keeps, held to one contract whoever wrote it.
        self.contract = Contract(
            pool,
            config.language,
            (config.addressee.handle, config.addressee.name),
            told=self._told,
            heard=self._heard,
        )
        self._heard_after = 0  # the last chat line whose names are read
        self._heard_names: set[str] = set()
        self._heard_now: frozenset[str] = frozenset()
        self.on_call = on_call  # told of every call as it is recorded (replays measure them)
        self.meter = meter or usage.UsageMeter()  # where the model's provider reports usage

    def _told(self) -> list[str]:
        """What players told her that she may say in the open: their public facts."""
        with self.store.read() as connection:
            return [fact.text for fact in facts.current(connection) if not fact.private]

    def _heard(self) -> frozenset[str]:
        """The names, years and times players said in the chat, lowercased, less every word of a fact she no
        longer holds or holds in confidence: never said again by any path. A line told in
        confidence or of a sensitive kind gives none, whatever her hearing kept of it."""
        lines = self.pool.events_of(ChatPosted, after_id=self._heard_after)
        if lines:
            self._heard_after = lines[-1].id
            said = [line.event.text for line in lines if not told_in_confidence(line.event.text)]
            self._heard_names |= {
                name.lower().replace("h", ":") if name[0].isdigit() else name.lower()
                for text in said
                for name in NAME.findall(text)
            }
            # ... and a name typed in lowercase, as a chat types it: a word common in
            # neither language ("the pub on portswood rd", "aqui em stoneybatter")
            self._heard_names |= {
                word
                for text in said
                for word in LOWERCASE_WORD.findall(text)
                if not common(word, "en") and not common(word, "pt")
            }
        with self.store.read() as connection:
            hidden = retired(connection).words()
        heard = frozenset(self._heard_names - hidden)
        if heard != self._heard_now:
            self._heard_now = heard  # the same object while nothing changes: a cache key
        return self._heard_now

    def ask(
        self,
        context: Context,
        request: Request,
        variant: tuple[int, int] = (0, 0),
        match: int | None = None,
        event_id: int | None = None,
        fall_back: bool = True,
        told: str = "",
    ) -> Asked:
        """One recorded call with a built context (``settle`` says what became of it);
        ``told``, why the last attempt was not posted.

        Calls that must be answered now (remarks, answers, entries, picks) fall
        back to the offline writer; memory's upkeep (fusion, merges, facts in
        chat) raises ``ModelError`` instead and is tried again with the next material.
        """
        call = self._call(context, request, variant, told)
        return self._complete(call, match, context, event_id, fall_back)

    def _call(
        self, context: Context, request: Request, variant: tuple[int, int], told: str = ""
    ) -> ModelCall:
        """The call of ``request`` with its context: its form said, what to change when
        it is a retry (``told``), and, for a text of hers when the model declares what it
        claims, the claims asked for beside it (``memory.declared``)."""
        prompt = shaped(context.prompt, request)
        prompt = f"{prompt}\n\n{told}" if told else prompt  # a retry: its first's, and why
        # what the claims are is said by the schema itself (``declared.SCHEMA``'s
        # description): sent before the context, in the part a provider caches
        declares = self.config.declares_claims and request.schema is None
        schema = declared.SCHEMA if declares else None
        return ModelCall(request.task, context.system, prompt, request, variant, schema)

    def say(
        self,
        item: LoggedEvent[Event],
        request: Request,
        about: list[str],
        instruction: str,
        match: int | None = None,
        attempts: int = 3,
    ) -> Spoken:
        """The commentator's door: she says what she wants said and about whom.

        Memory builds the context; the answer is held to the contract and checked
        against what she said lately about the same players; a line that repeats
        one is refused in code and asked again, up to ``attempts`` times.
        """
        guard = self.contexts.guard
        recent = self.pool.events_of(RemarkPosted, since=item.at - guard.window)
        players = {
            handle: name
            for handle, name in self.pool.names().items()
            if handle != self.config.addressee.handle
        }
        teams = {team for m in self.pool.matches() for team in (m.team1, m.team2)}
        masks = [*players, *players.values(), *teams]
        refused = 0
        # "What do you remember about me?": every fact of whom it asks, not the few that fit.
        every = [request.who] if isinstance(request, KnownFacts) else []
        # Built once for every attempt: a line refused as a repeat changes nothing it reads.
        context = self.contexts.build_context(
            item, self.config.budget, instruction, about, every_fact_of=every
        )
        told = ""  # why the last attempt was not posted: never the same request again
        for attempt in range(attempts):
            variant = (item.id, attempt)
            first = self.ask(context, request, variant, match=match, event_id=item.id, told=told)
            asked = self.held(first, context, request, item.id, match)
            if asked is None:
                return Spoken(None, refused)
            # Whom it is about is what it says, not what was asked for.
            named = named_in(asked.text, players)
            # An answer is owed, and so is a league's round line (a frame said each round
            # by design, ``prompts.SCHEDULED``): a repeat is asked again, but the last try
            # is posted anyway (a round told in compressed time lost its line otherwise).
            owed = isinstance(request, Answer | RoundDay) and attempt == attempts - 1
            earlier = None if owed else guard.repeats(asked.text, named, recent, item.at, masks)
            if earlier is not None:
                refused += 1
                self.settle(asked, "refused: repeats a recent remark")
                told = phrase(
                    "contract_refused", "retry.repeat", said=asked.text, earlier=earlier.event.text
                )
                continue
            return Spoken(asked, refused, tuple(named))
        return Spoken(None, refused)

    def held(
        self, asked: Asked, context: Context, request: Request, event_id: int, match: int | None
    ) -> Asked | None:
        """``asked`` if it keeps the output contract; else one retry told why, else the
        offline voice's line, held to the same contract.

        Each refusal is settled on its call ("refused: contract score 9-7: ..."), so
        ``memory stats`` counts them by rule; None when even the offline line fails.
        """
        grounds = self.contract.grounds(context.system, context.prompt, request)

        def breach(text: str, claims: tuple[declared.Declared, ...] = ()) -> Breach | None:
            return self.contract.check(text, request.text_kind, grounds, match, claims)

        found = breach(asked.text, asked.claims)
        if found is None:
            return asked
        self.settle(asked, f"refused: contract {found}")
        told = what_to_change(found, request.text_kind)
        retry = self._call(context, request, (event_id, RETRY), told)
        again = self._complete(retry, match, context, event_id, fall_back=True)
        found = breach(again.text, again.claims)
        if found is None:
            return again
        self.settle(again, f"refused: contract {found}")
        prompt = shaped(context.prompt, request)
        call = ModelCall(request.task, context.system, prompt, request, (event_id, OFFLINE))
        self.meter.take()
        started = time.perf_counter()
        text = self._answer(self.fallback, call)
        found = breach(text)
        outcome = "replaced by the offline voice" + (
            f"; refused: contract {found}" if found else ""
        )
        call_id = self._record(call, match, context, event_id, started, text, outcome, None)
        return None if found else Asked(text, call_id, replaced=True)

    def settle(self, asked: Asked, outcome: str) -> None:
        """What became of an answer: "posted", "refused: repeat", ..."""
        if asked.replaced:
            outcome = f"replaced by the offline voice; {outcome}"
        with self.store.write() as connection:
            usage.settle(connection, asked.call_id, outcome)

    def _complete(
        self,
        call: ModelCall,
        match: int | None,
        context: Context | None,
        event_id: int | None,
        fall_back: bool,
    ) -> Asked:
        # Everything in a prompt came from someone (players, feeds, earlier answers):
        # it reaches the model, and comes back from it, through the one sanitizer.
        call = replace(call, system=clean_block(call.system), prompt=clean_block(call.prompt))
        self.meter.take()  # reports of no call of ours (another tool's) are not this one's
        started = time.perf_counter()
        outcome, error = "answered", None
        try:
            answer = self._answer(self.model, call)
        except ModelError as failure:
            error, outcome = str(failure), f"fallen back: {failure}"
            try:
                if not fall_back:
                    raise
                answer = self._answer(self.fallback, call)
            except ModelError as final:
                self._record(call, match, context, event_id, started, "", f"failed: {final}", error)
                raise
        call_id = self._record(call, match, context, event_id, started, answer, outcome, error)
        if call.schema is declared.SCHEMA:  # a text with its claims; plain text declares none
            said = declared.parse(answer)
            return Asked(said.text, call_id, claims=said.claims)
        return Asked(answer, call_id)

    def _answer(self, model: Model, call: ModelCall) -> str:
        answer = clean_block(model.complete(call)).strip()
        if not answer:
            raise ModelError(f"{model.name} answered nothing for {call.task}")
        return answer

    def _record(
        self,
        call: ModelCall,
        match: int | None,
        context: Context | None,
        event_id: int | None,
        started: float,
        answer: str,
        outcome: str,
        error: str | None,
    ) -> int:
        reports = self.meter.take()
        first = reports[0] if reports else None
        record = usage.CallRecord(
            at=self.pool.clock(),
            task=call.task,
            provider=first.provider if first else self.model.name,
            model=first.model if first else self.model.name,
            system=call.system,
            prompt=call.prompt,
            response=answer,
            outcome=outcome,
            match_number=match,
            event_id=event_id,
            input_tokens=sum(r.input_tokens for r in reports),
            output_tokens=sum(r.output_tokens for r in reports),
            cache_read_tokens=sum(r.cache_read_tokens for r in reports),
            cache_write_tokens=sum(r.cache_write_tokens for r in reports),
            latency_ms=round((time.perf_counter() - started) * 1000),
            error=error,
            fallback=outcome.startswith(("fallen back", "replaced by the offline")),
            sources="; ".join(r.sources for r in reports if r.sources),
        )
        with self.store.write() as connection:
            call_id = usage.record(connection, record)
        if self.on_call is not None:
            self.on_call(record, context)
        return call_id


def shaped(prompt: str, request: Request) -> str:
    """``prompt`` with the form its answer is held to, from the contract's own table: a
    text the contract refuses for its length is one the model was told the length of."""
    if request.schema is not None:  # data, not words: its schema is its form
        return prompt
    characters, sentences = limits(request.text_kind)
    return f"{prompt}\n\n{render('shape', characters=characters, sentences=sentences)}"


def what_to_change(found: Breach, kind: str) -> str:
    """The retry's instruction: what to write instead, by the rule that refused the line.

    The refusal's own detail ("name Nine: nobody in this pool") is for the log; handed to
    a model, it teaches it to shun the word (and every capital), not to name right.
    """
    characters, sentences = limits(kind)
    rule = found.rule if found.rule in sections("contract_refused") else "claim"
    change = phrase("contract_refused", rule, characters=characters, sentences=sentences)
    if rule in ("claim", "declared"):
        # a claim's truth is what to write instead: "points 39: not what marta has"
        return phrase("contract_refused", "retry.wrong", wrong=found, change=change)
    return phrase("contract_refused", "retry", change=change)


def remembering(
    pool: Pool,
    model: Model,
    config: MemoryConfig | None = None,
    fallback: Model | None = None,
    on_call: OnCall | None = None,
    meter: usage.UsageMeter | None = None,
) -> tuple[MemoryKeeper, Gateway]:
    """A pool's memory, talking to ``model`` through one gateway: the two, wired."""
    config = config or MemoryConfig()
    store = open_store(pool)
    contexts = contexts_for(store, config)
    gateway = Gateway(pool, store, contexts, model, config, fallback, on_call, meter)
    keeper = MemoryKeeper(pool, gateway, config, store, contexts)
    keeper.start()
    return keeper, gateway
