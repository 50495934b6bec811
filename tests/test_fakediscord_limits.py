"""The fake Discord refuses just past each of Discord's documented limits, and accepts at
it, with the status and code Discord answers (400 / 50035 Invalid Form Body with the
nested ``errors`` naming the field; 413 / 40005 for files; 401 / 50027 for an expired
interaction token; 404 / 10008 for a message out of reach).

Each test names the page of Discord's API documentation it follows
(https://discord.com/developers/docs/...). The tests speak HTTP to the fake directly, as
a bot would, so what is checked is the fake and nothing of discord.py; interactions come
from an idle discord.py client, only there so the fake has a gateway to send them to.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import FakeChannel, FakeDiscord, FakeInteraction, FakeMessage, FakeUser

DOCS = "https://discord.com/developers/docs"
MiB = 1024 * 1024


@dataclass
class Answer:
    """One HTTP answer of the fake."""

    status: int
    body: Any

    @property
    def code(self) -> int | None:
        """Discord's JSON error code, if any."""
        return self.body.get("code") if isinstance(self.body, dict) else None

    def errors_at(self, path: str) -> list[dict[str, str]]:
        """The ``_errors`` Discord lists for the field at ``path`` (dotted; ``""`` for the
        request as a whole), ``[]`` when it names none there."""
        node = self.body.get("errors", {}) if isinstance(self.body, dict) else {}
        for part in filter(None, path.split(".")):
            node = node.get(part, {})
        return node.get("_errors", [])


class Rest:
    """Speaks Discord's REST API to the fake as a bot does."""

    def __init__(self, fake: FakeDiscord, session: aiohttp.ClientSession) -> None:
        self.fake = fake
        self.session = session

    async def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        files: dict[str, bytes] | None = None,
        auth: bool = True,
    ) -> Answer:
        """``method path`` under ``/api/v10`` with a JSON body, or multipart with files."""
        headers = {"Authorization": f"Bot {self.fake.token}"} if auth else {}
        kwargs: dict[str, Any] = {}
        if files:
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps(body or {}),
                           content_type="application/json")
            for index, (name, data) in enumerate(files.items()):
                form.add_field(f"files[{index}]", data, filename=name,
                               content_type="application/octet-stream")
            kwargs["data"] = form
        elif body is not None:
            kwargs["json"] = body
        async with self.session.request(
            method, self.fake.api_base + path, headers=headers, **kwargs
        ) as response:
            text = await response.text()
            return Answer(response.status, json.loads(text) if text else None)

    async def post(self, channel: FakeChannel, body: dict[str, Any], **kw: Any) -> Answer:
        """Send a message to ``channel``."""
        return await self.call("POST", f"/channels/{channel.id}/messages", body, **kw)

    async def callback(self, inter: FakeInteraction, rtype: int, data: Any = None) -> Answer:
        """Answer ``inter`` (its initial callback)."""
        body: dict[str, Any] = {"type": rtype}
        if data is not None:
            body["data"] = data
        return await self.call("POST", f"/interactions/{inter.id}/{inter.token}/callback",
                               body, auth=False)

    async def webhook(
        self, method: str, inter: FakeInteraction, tail: str = "", body: Any = None
    ) -> Answer:
        """The follow-up webhook of ``inter``: ``tail`` is ``""`` or ``/messages/...``."""
        path = f"/webhooks/{self.fake.application_id}/{inter.token}{tail}"
        return await self.call(method, path + ("?wait=true" if method == "POST" else ""),
                               body, auth=False)


@dataclass
class World:
    """A guild channel with a user in it and a message of the bot's to click on."""

    fake: FakeDiscord
    rest: Rest
    channel: FakeChannel
    user: FakeUser
    table: FakeMessage

    async def interaction(self) -> FakeInteraction:
        """A fresh click on the bot's message, not yet answered."""
        result = await self.fake.click_custom(self.user, self.table, "table:go", wait=False)
        return result.interaction


@pytest.fixture
async def rest(fake_discord: FakeDiscord) -> AsyncIterator[Rest]:
    """The REST API of the fake, spoken directly."""
    async with aiohttp.ClientSession() as session:
        yield Rest(fake_discord, session)


@pytest.fixture
async def world(fake_discord: FakeDiscord, rest: Rest) -> AsyncIterator[World]:
    """A channel, a user and a bot message with a button; an idle bot is connected, so the
    fake can deliver interactions (nobody answers them but the test)."""
    guild = fake_discord.add_guild("Casino")
    channel = guild.add_text_channel("table")
    user = guild.add_user("Ada")
    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "table:go"}
    posted = await rest.post(channel, {"content": "table",
                                       "components": [{"type": 1, "components": [button]}]})
    assert posted.status == 200, posted.body
    table = fake_discord.messages[int(posted.body["id"])]
    async with fake_discord.running(discord.Client(intents=discord.Intents.none())):
        yield World(fake_discord, rest, channel, user, table)


async def refused_then_accepted(
    send: Callable[[Any], Any], past: Any, at: Any, path: str
) -> None:
    """``send(past)`` is refused with 400 / 50035 naming ``path``; ``send(at)`` is accepted."""
    refused = await send(past)
    assert (refused.status, refused.code) == (400, 50035), refused.body
    assert refused.errors_at(path), f"no error at {path!r}: {refused.body}"
    accepted = await send(at)
    assert accepted.status in (200, 201, 204), accepted.body


def text(n: int) -> str:
    """A string of ``n`` characters."""
    return "x" * n


# --- messages: content and embeds ----------------------------------------------------------


EMBED_CASES = {
    # case: (limit, embed with n characters at the limited field, path of the error)
    "title": (256, lambda n: {"title": text(n)}, "embeds.0.title"),
    "description": (4096, lambda n: {"description": text(n)}, "embeds.0.description"),
    "author.name": (256, lambda n: {"author": {"name": text(n)}}, "embeds.0.author.name"),
    "footer.text": (2048, lambda n: {"footer": {"text": text(n)}}, "embeds.0.footer.text"),
    "field.name": (256, lambda n: {"fields": [{"name": text(n), "value": "v"}]},
                   "embeds.0.fields.0.name"),
    "field.value": (1024, lambda n: {"fields": [{"name": "n", "value": text(n)}]},
                    "embeds.0.fields.0.value"),
    "fields": (25, lambda n: {"title": "t", "fields": [{"name": "n", "value": "v"}] * n},
               "embeds.0.fields"),
}


@pytest.mark.parametrize("case", sorted(EMBED_CASES))
async def test_embed_text_limits(world: World, case: str) -> None:
    """Embed limits: title 256, description 4096, author name 256, footer 2048, 25 fields
    of name 256 and value 1024 (resources/message#embed-object-embed-limits)."""
    limit, embed, path = EMBED_CASES[case]

    async def send(n: int) -> Answer:
        return await world.rest.post(world.channel, {"embeds": [embed(n)]})

    await refused_then_accepted(send, limit + 1, limit, path)


async def test_embed_limits_count_trimmed_text(world: World) -> None:
    """"Leading and trailing whitespace characters are not included (they are trimmed
    automatically)" (resources/message#embed-object-embed-limits)."""
    answer = await world.rest.post(world.channel, {"embeds": [{"title": f"  {text(256)}  "}]})
    assert answer.status == 200, answer.body


async def test_embeds_6000_characters_in_all(world: World) -> None:
    """The title, description, field names and values, footer and author of all a
    message's embeds together: at most 6000 (resources/message#embed-object-embed-limits)."""

    def embeds(total: int) -> list[dict[str, Any]]:
        # Two embeds of 3000 each (title 256 + description 2744), the last one shorter.
        last = total - 3000
        return [{"title": text(256), "description": text(2744)},
                {"title": text(256), "description": text(last - 256)}]

    async def send(total: int) -> Answer:
        return await world.rest.post(world.channel, {"embeds": embeds(total)})

    await refused_then_accepted(send, 6001, 6000, "embeds")


async def test_embed_author_and_footer_need_their_text(world: World) -> None:
    """An embed author's ``name`` and a footer's ``text`` are required fields of their
    objects (resources/message#embed-object-embed-author-structure, -footer-structure)."""
    for embed, path in (({"author": {"url": "https://example.com"}}, "embeds.0.author.name"),
                        ({"footer": {"icon_url": "https://e.com/a.png"}}, "embeds.0.footer.text")):
        answer = await world.rest.post(world.channel, {"content": "c", "embeds": [embed]})
        assert (answer.status, answer.code) == (400, 50035) and answer.errors_at(path)


async def test_content_2000_characters(world: World) -> None:
    """Message content "up to 2000 characters" (resources/message#create-message)."""

    async def send(n: int) -> Answer:
        return await world.rest.post(world.channel, {"content": text(n)})

    await refused_then_accepted(send, 2001, 2000, "content")


async def test_errors_come_in_discords_nested_shape(world: World) -> None:
    """Invalid Form Body names each field as nested keys with ``_errors`` of a code and a
    message (reference#error-messages)."""
    answer = await world.rest.post(world.channel, {"embeds": [{"title": text(257)}]})
    assert answer.body == {
        "code": 50035,
        "message": "Invalid Form Body",
        "errors": {"embeds": {"0": {"title": {"_errors": [
            {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 256 or fewer in length."}
        ]}}}},
    }


# --- files --------------------------------------------------------------------------------


async def test_a_file_of_more_than_10_mib_is_too_large(world: World) -> None:
    """"The default limit is 10 MiB" per file (reference#uploading-files); Discord answers
    413, 40005 Request entity too large (topics/opcodes-and-status-codes#json)."""
    refused = await world.rest.post(world.channel, {"content": "big"},
                                    files={"big.bin": bytes(10 * MiB + 1)})
    assert (refused.status, refused.code) == (413, 40005), refused.body
    accepted = await world.rest.post(world.channel, {"content": "big"},
                                     files={"big.bin": bytes(10 * MiB)})
    assert accepted.status == 200, accepted.body


async def test_a_request_of_more_than_25_mib_is_too_large(world: World) -> None:
    """"The maximum request size when sending a message is 25 MiB"
    (resources/message#create-message, Limitations): three files under 10 MiB each
    are refused together (413, 40005), two are not."""
    files = {f"part{i}.bin": bytes(9 * MiB) for i in range(3)}
    refused = await world.rest.post(world.channel, {"content": "parts"}, files=files)
    assert (refused.status, refused.code) == (413, 40005), refused.body
    files.pop("part2.bin")
    accepted = await world.rest.post(world.channel, {"content": "parts"}, files=files)
    assert accepted.status == 200, accepted.body


async def test_an_edit_with_a_file_too_large_is_refused(world: World) -> None:
    """Editing a message uploads files under the same 10 MiB (reference#uploading-files)."""
    path = f"/channels/{world.channel.id}/messages/{world.table.id}"
    refused = await world.rest.call("PATCH", path, {"content": "x"},
                                    files={"big.bin": bytes(10 * MiB + 1)})
    assert (refused.status, refused.code) == (413, 40005), refused.body
    assert world.table.attachments == []


# --- allowed mentions ----------------------------------------------------------------------


async def test_allowed_mentions_parse_types(world: World) -> None:
    """``parse`` holds only "roles", "users" and "everyone"
    (resources/message#allowed-mentions-object-allowed-mention-types)."""

    async def send(kind: str) -> Answer:
        return await world.rest.post(
            world.channel, {"content": "hi", "allowed_mentions": {"parse": [kind]}})

    await refused_then_accepted(send, "channels", "everyone", "allowed_mentions.parse.0")


@pytest.mark.parametrize("kind", ["users", "roles"])
async def test_allowed_mentions_parse_and_list_are_exclusive(world: World, kind: str) -> None:
    """"parse" with "users" (or "roles") beside a non-empty ``users`` (``roles``) list is
    "an invalid configuration ... causing a validation error"; an empty list is fine
    (resources/message#allowed-mentions-object-allowed-mentions-examples)."""

    async def send(ids: list[str]) -> Answer:
        return await world.rest.post(world.channel, {
            "content": "hi", "allowed_mentions": {"parse": [kind], kind: ids}})

    await refused_then_accepted(send, ["1234"], [], "allowed_mentions")


@pytest.mark.parametrize("kind", ["users", "roles"])
async def test_allowed_mentions_at_most_100_ids(world: World, kind: str) -> None:
    """``users`` and ``roles``: "max 100" ids each (resources/message#allowed-mentions-object)."""

    async def send(n: int) -> Answer:
        ids = [str(1000 + i) for i in range(n)]
        return await world.rest.post(world.channel, {"content": "hi",
                                                     "allowed_mentions": {kind: ids}})

    await refused_then_accepted(send, 101, 100, f"allowed_mentions.{kind}")


async def test_allowed_mentions_are_checked_on_interaction_answers(world: World) -> None:
    """An interaction's message takes the same allowed mentions as any message
    (interactions/receiving-and-responding#interaction-callback-data-structure)."""
    inter = await world.interaction()
    bad = {"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    refused = await world.rest.callback(inter, 4, bad)
    assert (refused.status, refused.code) == (400, 50035)
    assert refused.errors_at("allowed_mentions")
    assert (await world.rest.callback(inter, 4, {"content": "hi"})).status == 204


# --- components: selects and buttons -------------------------------------------------------


def select(**fields: Any) -> dict[str, Any]:
    """A string select of three options, with ``fields`` overriding."""
    options = [{"label": f"L{i}", "value": f"v{i}"} for i in range(3)]
    return {"type": 3, "custom_id": "pick", "options": options, **fields}


def options(n: int) -> list[dict[str, str]]:
    """``n`` distinct options."""
    return [{"label": f"L{i}", "value": f"v{i}"} for i in range(n)]


SELECT_CASES = {
    # case: (select past the limit, select at it, path under the select)
    "option label 100": (select(options=[{"label": text(101), "value": "v"}]),
                         select(options=[{"label": text(100), "value": "v"}]), "options.0.label"),
    "option value 100": (select(options=[{"label": "L", "value": text(101)}]),
                         select(options=[{"label": "L", "value": text(100)}]), "options.0.value"),
    "option description 100": (
        select(options=[{"label": "L", "value": "v", "description": text(101)}]),
        select(options=[{"label": "L", "value": "v", "description": text(100)}]),
        "options.0.description"),
    "placeholder 150": (select(placeholder=text(151)), select(placeholder=text(150)),
                        "placeholder"),
    "25 options": (select(options=options(26)), select(options=options(25)), "options"),
    "max_values 25": (select(options=options(25), max_values=26),
                      select(options=options(25), max_values=25), "max_values"),
    "max_values at least 1": (select(max_values=0, min_values=0),
                              select(max_values=1, min_values=0), "max_values"),
    "min_values 0": (select(min_values=-1), select(min_values=0), "min_values"),
    "min_values at most max_values": (select(min_values=3, max_values=2),
                                      select(min_values=2, max_values=2), "min_values"),
    "max_values at most the options": (select(max_values=4), select(max_values=3),
                                       "max_values"),
    "custom_id 100": (select(custom_id=text(101)), select(custom_id=text(100)), "custom_id"),
}


@pytest.mark.parametrize("case", sorted(SELECT_CASES))
async def test_string_select_limits(world: World, case: str) -> None:
    """A string select: custom_id 1-100, placeholder 150, 1-25 options of label, value and
    description 100 each, min_values 0-25 and max_values 1-25 with min <= max <= options
    (components/reference#string-select, #string-select-select-option-structure)."""
    past, at, path = SELECT_CASES[case]

    async def send(menu: dict[str, Any]) -> Answer:
        return await world.rest.post(world.channel, {
            "content": "pick", "components": [{"type": 1, "components": [menu]}]})

    await refused_then_accepted(send, past, at, f"components.0.components.0.{path}")


async def test_user_select_values_limits(world: World) -> None:
    """User, role, mentionable and channel selects: placeholder 150, max_values 1-25
    (components/reference#user-select)."""

    async def send(menu: dict[str, Any]) -> Answer:
        return await world.rest.post(world.channel, {
            "content": "who", "components": [{"type": 1, "components": [menu]}]})

    base = {"type": 5, "custom_id": "who"}
    await refused_then_accepted(send, {**base, "max_values": 26}, {**base, "max_values": 25},
                                "components.0.components.0.max_values")
    await refused_then_accepted(send, {**base, "placeholder": text(151)},
                                {**base, "placeholder": text(150)},
                                "components.0.components.0.placeholder")


async def test_button_label_and_url_limits(world: World) -> None:
    """A button's label: max 80; a link button's url: max 512 (components/reference#button)."""

    async def send(button: dict[str, Any]) -> Answer:
        return await world.rest.post(world.channel, {
            "content": "b", "components": [{"type": 1, "components": [button]}]})

    def click(n: int) -> dict[str, Any]:
        return {"type": 2, "style": 1, "custom_id": "b", "label": text(n)}

    def link(n: int) -> dict[str, Any]:
        url = "https://example.com/" + text(n - len("https://example.com/"))
        return {"type": 2, "style": 5, "label": "site", "url": url}

    path = "components.0.components.0"
    await refused_then_accepted(send, click(81), click(80), f"{path}.label")
    await refused_then_accepted(send, link(513), link(512), f"{path}.url")


async def test_select_limits_hold_on_an_update_too(world: World) -> None:
    """Callback 7 (UPDATE_MESSAGE) edits the clicked message under the same component
    rules (interactions/receiving-and-responding#interaction-callback-data-structure)."""
    inter = await world.interaction()
    row = {"type": 1, "components": [select(placeholder=text(151))]}
    refused = await world.rest.callback(inter, 7, {"components": [row]})
    assert (refused.status, refused.code) == (400, 50035)
    assert refused.errors_at("components.0.components.0.placeholder")
    assert world.table.history == []


# --- modals --------------------------------------------------------------------------------


def text_input(**fields: Any) -> dict[str, Any]:
    """A short text input in an action row, with ``fields`` overriding."""
    return {"type": 1, "components": [
        {"type": 4, "custom_id": "answer", "style": 1, "label": "Answer", **fields}]}


def modal(**fields: Any) -> dict[str, Any]:
    """A modal of one text input, with ``fields`` overriding."""
    return {"custom_id": "form", "title": "Form", "components": [text_input()], **fields}


MODAL_CASES = {
    # case: (modal past the limit, modal at it, path of the error under "data")
    "title 45": (modal(title=text(46)), modal(title=text(45)), "title"),
    "custom_id 100": (modal(custom_id=text(101)), modal(custom_id=text(100)), "custom_id"),
    "5 components": (
        modal(components=[text_input(custom_id=f"a{i}") for i in range(6)]),
        modal(components=[text_input(custom_id=f"a{i}") for i in range(5)]), "components"),
    "at least 1 component": (modal(components=[]), modal(), "components"),
    "text input label 45": (modal(components=[text_input(label=text(46))]),
                            modal(components=[text_input(label=text(45))]),
                            "components.0.components.0.label"),
    "text input value 4000": (modal(components=[text_input(value=text(4001))]),
                              modal(components=[text_input(value=text(4000))]),
                              "components.0.components.0.value"),
    "text input placeholder 100": (modal(components=[text_input(placeholder=text(101))]),
                                   modal(components=[text_input(placeholder=text(100))]),
                                   "components.0.components.0.placeholder"),
    "text input max_length 4000": (modal(components=[text_input(max_length=4001)]),
                                   modal(components=[text_input(max_length=4000)]),
                                   "components.0.components.0.max_length"),
    "text input max_length 1": (modal(components=[text_input(max_length=0)]),
                                modal(components=[text_input(max_length=1)]),
                                "components.0.components.0.max_length"),
    "text input min_length 4000": (modal(components=[text_input(min_length=4001)]),
                                   modal(components=[text_input(min_length=4000)]),
                                   "components.0.components.0.min_length"),
    "text input min_length 0": (modal(components=[text_input(min_length=-1)]),
                                modal(components=[text_input(min_length=0)]),
                                "components.0.components.0.min_length"),
    "text input min_length at most max_length": (
        modal(components=[text_input(min_length=10, max_length=9)]),
        modal(components=[text_input(min_length=9, max_length=9)]),
        "components.0.components.0.min_length"),
    "text input custom_id 100": (modal(components=[text_input(custom_id=text(101))]),
                                 modal(components=[text_input(custom_id=text(100))]),
                                 "components.0.components.0.custom_id"),
    "label component 45": (
        modal(components=[{"type": 18, "label": text(46), "component":
                           {"type": 4, "custom_id": "a", "style": 1}}]),
        modal(components=[{"type": 18, "label": text(45), "component":
                           {"type": 4, "custom_id": "a", "style": 1}}]),
        "components.0.label"),
}


@pytest.mark.parametrize("case", sorted(MODAL_CASES))
async def test_modal_limits(world: World, case: str) -> None:
    """A modal: custom_id 1-100, title 1-45, 1-5 components
    (interactions/receiving-and-responding#interaction-response-object-modal); a text
    input: custom_id 1-100, label 45, placeholder 100, value 4000, min_length 0-4000,
    max_length 1-4000 (components/reference#text-input); a label: 45
    (components/reference#label)."""
    past, at, path = MODAL_CASES[case]
    inter = await world.interaction()

    async def send(data: dict[str, Any]) -> Answer:
        return await world.rest.callback(inter, 9, data)

    await refused_then_accepted(send, past, at, f"data.{path}")
    assert inter.modal == at


# --- application commands ------------------------------------------------------------------


def command(*options: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A slash command with ``options``."""
    return {"name": "deal", "description": "Deal", "type": 1, "options": list(options),
            **fields}


def string_option(name: str = "card", **fields: Any) -> dict[str, Any]:
    """A string option."""
    return {"type": 3, "name": name, "description": "d", **fields}


def choices(n: int, name: int = 5, value: int = 5) -> list[dict[str, str]]:
    """``n`` choices with names and values of about the given lengths."""
    return [{"name": f"{i:02}" + text(name - 2), "value": f"{i:02}" + text(value - 2)}
            for i in range(n)]


def sub(name: str, *options: dict[str, Any]) -> dict[str, Any]:
    """A subcommand."""
    return {"type": 1, "name": name, "description": "d", "options": list(options)}


def group(name: str, *options: dict[str, Any]) -> dict[str, Any]:
    """A subcommand group."""
    return {"type": 2, "name": name, "description": "d", "options": list(options)}


COMMAND_CASES = {
    # case: (command past the limit, command at it, path of the error under "0")
    "25 choices": (command(string_option(choices=choices(26))),
                   command(string_option(choices=choices(25))), "options.0.choices"),
    "choice name 100": (command(string_option(choices=choices(1, name=101))),
                        command(string_option(choices=choices(1, name=100))),
                        "options.0.choices.0.name"),
    "choice name 1": (command(string_option(choices=[{"name": "", "value": "v"}])),
                      command(string_option(choices=[{"name": "n", "value": "v"}])),
                      "options.0.choices.0.name"),
    "choice value 100": (command(string_option(choices=choices(1, value=101))),
                         command(string_option(choices=choices(1, value=100))),
                         "options.0.choices.0.value"),
    "25 options": (command(*[string_option(f"o{i}") for i in range(26)]),
                   command(*[string_option(f"o{i}") for i in range(25)]), "options"),
    "required before optional": (
        command(string_option("a"), string_option("b", required=True)),
        command(string_option("b", required=True), string_option("a")),
        "options.1.required"),
    "a group holds only subcommands": (
        command(group("seat", string_option())),
        command(group("seat", sub("take", string_option()))), "options.0.options"),
    "one level of groups": (
        command(group("seat", group("inner", sub("take")))),
        command(group("seat", sub("take")), group("inner", sub("take"))),
        "options.0.options.0.type"),
    "subcommands hold no subcommands": (
        command(sub("take", sub("inner"))), command(sub("take"), sub("inner")),
        "options.0.options.0.type"),
    "subcommands not beside options": (
        command(sub("take"), string_option()), command(sub("take"), sub("give")), "options"),
    "25 subcommands in a group": (
        command(group("seat", *[sub(f"s{i}") for i in range(26)])),
        command(group("seat", *[sub(f"s{i}") for i in range(25)])), "options.0.options"),
    "autocomplete or choices": (
        command(string_option(autocomplete=True, choices=choices(2))),
        command(string_option(autocomplete=True)), "options.0.autocomplete"),
}


@pytest.mark.parametrize("case", sorted(COMMAND_CASES))
async def test_command_option_limits(fake_discord: FakeDiscord, rest: Rest, case: str) -> None:
    """Options: at most 25, required before optional, choices (max 25; name 1-100; a
    string value "up to 100 characters") and autocomplete never with choices
    (interactions/application-commands#application-command-object-application-command-
    option-structure, -option-choice-structure); nesting "one level deep within a group
    ... That is the only kind of nesting supported"
    (interactions/application-commands#subcommands-and-subcommand-groups)."""
    past, at, path = COMMAND_CASES[case]
    route = f"/applications/{fake_discord.application_id}/commands"

    async def send(cmd: dict[str, Any]) -> Answer:
        return await rest.call("PUT", route, [cmd])

    await refused_then_accepted(send, past, at, f"0.{path}")
    assert [c.name for c in fake_discord.commands()] == ["deal"]


async def test_a_command_of_more_than_8000_characters(
    fake_discord: FakeDiscord, rest: Rest
) -> None:
    """"Slash commands can have a maximum of 8000 characters for combined name,
    description, and value properties" (interactions/application-commands#slash-commands;
    the Request Error of reference#error-messages)."""
    route = f"/applications/{fake_discord.application_id}/commands"

    def sized(total: int) -> dict[str, Any]:
        opts = [string_option(f"o{i}", choices=choices(25, name=40, value=39))
                for i in range(4)]
        # "deal" and its description, four options "oN" / "d", 100 choices of 40 + 39.
        base = 4 + 4 + 4 * (2 + 1) + 4 * 25 * (40 + 39)
        return command(*opts, description=text(4 + total - base))

    refused = await rest.call("PUT", route, [sized(8001)])
    assert (refused.status, refused.code) == (400, 50035), refused.body
    assert refused.errors_at("0")[0]["code"] == "APPLICATION_COMMAND_TOO_LARGE"
    assert (await rest.call("PUT", route, [sized(8000)])).status == 200


async def test_an_edited_command_is_held_to_the_same_rules(
    fake_discord: FakeDiscord, rest: Rest
) -> None:
    """Editing a command validates it as creating one does
    (interactions/application-commands#edit-global-application-command)."""
    route = f"/applications/{fake_discord.application_id}/commands"
    created = await rest.call("POST", route, command(string_option()))
    assert created.status == 201, created.body
    edit = {"options": [string_option(choices=choices(26))]}
    refused = await rest.call("PATCH", f"{route}/{created.body['id']}", edit)
    assert (refused.status, refused.code) == (400, 50035)
    assert refused.errors_at("options.0.choices")
    assert "choices" not in fake_discord.commands()[0].raw["options"][0]


# --- interaction tokens ------------------------------------------------------------------


async def test_an_interaction_token_lasts_15_minutes(world: World) -> None:
    """"Interaction tokens are valid for 15 minutes"
    (interactions/receiving-and-responding#followup-messages); past them every request
    with the token is refused 401 Unauthorized (discord/discord-api-docs#6851), code
    50027 Invalid Webhook Token (topics/opcodes-and-status-codes#json). The fake's clock
    moves with ``fake.advance(seconds)``, without waiting."""
    inter = await world.interaction()
    assert (await world.rest.callback(inter, 5)).status == 204
    world.fake.advance(15 * 60 - 1)
    first = await world.rest.webhook("POST", inter, body={"content": "still in time"})
    assert first.status == 200, first.body
    world.fake.advance(2)
    for method, tail, body in (
        ("POST", "", {"content": "too late"}),
        ("PATCH", "/messages/@original", {"content": "too late"}),
        ("GET", "/messages/@original", None),
        ("DELETE", f"/messages/{first.body['id']}", None),
    ):
        late = await world.rest.webhook(method, inter, tail, body)
        assert (late.status, late.code) == (401, 50027), (method, tail, late.body)
    assert inter.original is not None and inter.original.content == "still in time"


async def test_an_interaction_made_after_advancing_is_fresh(world: World) -> None:
    """Advancing Discord's clock ages interactions made before, not those made after
    (interactions/receiving-and-responding#responding-to-an-interaction: 3 s to answer)."""
    world.fake.advance(3600)
    inter = await world.interaction()
    assert (await world.rest.callback(inter, 4, {"content": "hi"})).status == 204


async def test_an_old_interaction_cannot_be_answered(world: World) -> None:
    """Past its 15 minutes an interaction is unknown, 404 / 10062, even to a fake whose
    3 s check is off (interactions/receiving-and-responding#responding-to-an-interaction)."""
    world.fake.ack_deadline = None
    inter = await world.interaction()
    world.fake.advance(15 * 60 + 1)
    late = await world.rest.callback(inter, 4, {"content": "hi"})
    assert (late.status, late.code) == (404, 10062)


# --- ephemeral messages -------------------------------------------------------------------


async def test_an_ephemeral_message_is_not_in_the_channel(world: World) -> None:
    """An ephemeral message is "only visible to the user who invoked the Interaction"
    (resources/message#message-object-message-flags) and is not sent through the guild
    channel (events/gateway-events#message-create): the channel routes answer 404 /
    10008 Unknown Message for it."""
    inter = await world.interaction()
    assert (await world.rest.callback(inter, 4, {"content": "secret", "flags": 64})).status == 204
    secret = inter.original
    assert secret is not None and secret.ephemeral
    path = f"/channels/{world.channel.id}/messages/{secret.id}"
    for method, body in (("GET", None), ("PATCH", {"content": "x"}), ("DELETE", None)):
        answer = await world.rest.call(method, path, body)
        assert (answer.status, answer.code) == (404, 10008), (method, answer.body)
    assert secret.content == "secret" and not secret.deleted


async def test_an_ephemeral_message_only_through_its_own_interaction(world: World) -> None:
    """Another interaction's token does not reach an ephemeral message (404 / 10008); its
    own does (interactions/receiving-and-responding#edit-followup-message)."""
    mine = await world.interaction()
    assert (await world.rest.callback(mine, 4, {"content": "secret", "flags": 64})).status == 204
    secret = mine.original
    assert secret is not None
    other = await world.interaction()
    assert (await world.rest.callback(other, 6)).status == 204
    tail = f"/messages/{secret.id}"
    for method, body in (("GET", None), ("PATCH", {"content": "x"}), ("DELETE", None)):
        answer = await world.rest.webhook(method, other, tail, body)
        assert (answer.status, answer.code) == (404, 10008), (method, answer.body)
    edited = await world.rest.webhook("PATCH", mine, tail, {"content": "still secret"})
    assert edited.status == 200 and secret.content == "still secret"


async def test_a_public_answer_is_reachable_through_another_token(world: World) -> None:
    """A message the app sent through an interaction, not ephemeral, can be edited with a
    later interaction's token, as the follow-up webhook edits the app's messages
    (interactions/receiving-and-responding#edit-followup-message)."""
    first = await world.interaction()
    assert (await world.rest.callback(first, 4, {"content": "public"})).status == 204
    public = first.original
    assert public is not None
    later = await world.interaction()
    assert (await world.rest.callback(later, 6)).status == 204
    edited = await world.rest.webhook("PATCH", later, f"/messages/{public.id}",
                                      {"content": "edited"})
    assert edited.status == 200 and public.content == "edited"
