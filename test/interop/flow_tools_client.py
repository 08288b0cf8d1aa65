"""Drive a gateway's flow tools with the reference's own Python client (a11-kit).

Run with the interpreter that has a11-kit installed:

    python flow_tools_client.py ws://127.0.0.1:8011/a11

It connects as an ordinary A11 client (no Origin, no token: a local program), then:

1. `flow_actions` — what the gateway lets a flow compose;
2. `flow_check` — a flow compiled, nothing run;
3. `flow_run` with an input port the client streams into while the flow runs, and an output
   the client reads as it is written: the client waits for each answer before it sends the
   next word, so the run only finishes if outputs really are live;
4. `flow_run` whose flow `call`s `list_audio_inputs`: the gateway dispatches it back over this
   connection and this client answers it from its own registry.

Each result is printed as one JSON line ({"step": ..., ...}); the TypeScript test reads them.
Failures print {"step": ..., "error": "..."} and the script exits 1.
"""

import asyncio
import json
import sys
from typing import Any

import a11
from a11.sdk import flow_tools
from a11.sdk.audio import actions as audio_actions

SHOUT = """
flow shout {
  describe "Upper-cases each word as it arrives."
  in  words: string stream required "Words, one at a time."
  out loud:  string stream "Each word, upper-cased."
  words | map upper(it) -> loud
}
"""

DEVICES = """
flow devices {
  describe "Asks the caller for its microphones."
  out names: string stream "The caller's input devices."
  found = call list_audio_inputs()
  found.inputs | map it.name -> names
}
"""

CLIENT_DEVICE = {
    "index": 0,
    "name": "interop test microphone",
    "host_api": "test",
    "max_input_channels": 1,
    "max_output_channels": 0,
    "default_sample_rate": 16000.0,
    "is_default_input": True,
    "is_default_output": False,
}


def emit(step: str, **fields: Any) -> None:
    print(json.dumps({"step": step, **fields}), flush=True)


async def list_audio_inputs(action: a11.Action) -> None:
    """This client's answer to the gateway's `call list_audio_inputs()`."""
    await action["inputs"].put(CLIENT_DEVICE, final=True)
    await action["inputs"].close()


class Client:
    def __init__(self, url: str) -> None:
        self.url = url
        self.served_calls = 0

    async def connect(self) -> None:
        options = a11.WebSocketClientOptions()
        options.http2_options.client_preference = a11.HttpProtocolPreference.HTTP11
        self.stream = a11.WebSocketWireStream.connect(self.url, websocket_options=options)
        registry = a11.ActionRegistry()
        schema = audio_actions.LIST_AUDIO_INPUTS_SCHEMA

        async def counted(action: a11.Action) -> None:
            self.served_calls += 1
            await list_audio_inputs(action)

        registry.register(schema.name, schema, counted)
        self.session = a11.Session(action_registry=registry)
        await self.session.add_stream(self.stream, mode="start")

    def remote(self, schema: a11.ActionSchema) -> a11.Action:
        return (
            a11.Action(schema)
            .bind_node_map(self.session.node_map)
            .bind_session(self.session)
            .bind_stream(self.stream)
        )

    def published(self, call: a11.Action, port: str) -> Any:
        node = self.session.node_map.get(flow_tools.flow_output_node_id(call.get_id(), port))
        return node

    async def flow_actions(self) -> None:
        call = self.remote(flow_tools.FLOW_ACTIONS_SCHEMA)
        await call.call()
        described = await call["actions"].next_object()
        await call.wait()
        emit("flow_actions", actions=sorted(entry["action"] for entry in described))

    async def flow_check(self) -> None:
        call = self.remote(flow_tools.FLOW_CHECK_SCHEMA)
        await call.call()
        await call["source"].finalize(SHOUT)
        plan = await call["plan"].next_object()
        await call.wait()
        flow = plan["flows"][0]
        emit(
            "flow_check",
            format=plan["format"],
            flow=flow["flow"],
            inputs=sorted(flow["inputs"]),
            outputs=sorted(flow["outputs"]),
            steps=[step["step"] for step in flow["steps"]],
        )

    async def flow_check_error(self) -> None:
        call = self.remote(flow_tools.FLOW_CHECK_SCHEMA)
        await call.call()
        await call["source"].finalize("flow broken {\n  in x: strng\n}\n")
        try:
            await call.wait()
            emit("flow_check_error", error="a flow that does not compile was accepted")
        except Exception as error:  # noqa: BLE001 - the status is what is being checked
            emit("flow_check_error", status=str(error))

    async def streamed_run(self) -> None:
        call = self.remote(flow_tools.FLOW_RUN_SCHEMA)
        await call.call()
        loud = self.published(call, "loud")
        words = self.session.node_map.get(flow_tools.flow_input_node_id(call.get_id(), "words"))
        words.attach_stream(self.stream)
        await call["input_streams"].finalize(["words"])
        await call["source"].finalize(SHOUT)
        await call["inputs"].finalize()
        await call["flow"].finalize()
        heard = []
        for word in ("one", "two", "three"):
            await (await words.put(word))
            # The next word is only sent once this one has come back: a gateway that held the
            # outputs until the end would never answer, and the timeout below would say so.
            heard.append(await asyncio.wait_for(loud.next_object(), timeout=20))
        await words.finalize()
        await asyncio.wait_for(call.wait(), timeout=20)
        result = await call["result"].next_object()
        emit("flow_run_streamed", live=heard, result=result)

    async def call_back_run(self) -> None:
        call = self.remote(flow_tools.FLOW_RUN_SCHEMA)
        await call.call()
        names = self.published(call, "names")
        await call["source"].finalize(DEVICES)
        await call["inputs"].finalize()
        await call["input_streams"].finalize()
        await call["flow"].finalize()
        await asyncio.wait_for(call.wait(), timeout=30)
        result = await call["result"].next_object()
        live = []
        while (value := await names.next_object()) is not None:
            live.append(value)
        emit("flow_run_call", result=result, live=live, served_calls=self.served_calls)


async def main(url: str) -> int:
    client = Client(url)
    step = "connect"
    try:
        await client.connect()
        for step, run in (
            ("flow_actions", client.flow_actions),
            ("flow_check", client.flow_check),
            ("flow_check_error", client.flow_check_error),
            ("flow_run_streamed", client.streamed_run),
            ("flow_run_call", client.call_back_run),
        ):
            await asyncio.wait_for(run(), timeout=60)
    except BaseException as error:  # noqa: BLE001 - reported to the test, which fails on it
        emit(step, error=f"{type(error).__name__}: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "ws://127.0.0.1:8011/a11")))
