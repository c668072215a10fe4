// The soak's inbox workload (bench/soak.ts): fake Mastodon-shaped servers on loopback
// (test/helpers/fake-remote.ts, each actor with its own RSA keys) whose actors are followed by the
// soak's local accounts, sending signed activities to Gannet's shared inbox as Mastodon signs them
// (HTTP Signatures, cavage draft, as bench/inbox.ts): three `Create`s of a public Note (into the
// followers' home feeds and the public timeline) for every `Like` of a local status (a
// notification for its author). Signed when due: the signing is the sender's CPU, not the server's.
import type { AppContext } from "../../src/context.ts";
import { type FakeActor, FakeRemote, postSigned } from "../../test/helpers/fake-remote.ts";
import { sleep } from "./children.ts";
import type { Outcome } from "./soak-load.ts";

export interface Remotes {
  remotes: FakeRemote[];
  actors: { remote: FakeRemote; actor: FakeActor }[];
}

export async function startRemotes(servers: number, actorsEach: number): Promise<Remotes> {
  const remotes: FakeRemote[] = [];
  const actors: Remotes["actors"] = [];
  for (let i = 0; i < servers; i++) {
    const remote = await FakeRemote.start();
    remotes.push(remote);
    for (let j = 0; j < actorsEach; j++) actors.push({ remote, actor: await remote.addActor(`soak${j}`) });
  }
  return { remotes, actors };
}

/**
 * One `Create` from every actor (Gannet fetches the actors and their keys), then `followers`
 * (local account ids) follow every one of them, written straight into the database.
 */
export async function warmUp(ctx: AppContext, inbox: string, r: Remotes, followers: string[]): Promise<void> {
  const answers = await Promise.all(
    r.actors.map(async ({ remote, actor }) => {
      const res = await postSigned(await remote.sign(inbox, remote.create(actor, remote.note(actor, "warm-up"))));
      await res.arrayBuffer();
      return res.status;
    }),
  );
  if (answers.some((s) => s !== 202)) throw new Error(`inbox warm-up answered ${answers.join(", ")}`);
  const limit = Date.now() + 60_000;
  for (;;) {
    const known = await Promise.all(r.actors.map(({ actor }) => ctx.repos.accounts.getByUri(actor.id)));
    if (known.every(Boolean)) {
      for (const target of known) {
        for (const follower of followers) {
          await ctx.repos.follows.insert({
            id: ctx.ids.next(),
            account_id: follower,
            target_account_id: (target as { id: string }).id,
            created_at: new Date().toISOString(),
          });
        }
      }
      return;
    }
    if (Date.now() > limit) throw new Error("Gannet did not store the remote actors within 60 s");
    await sleep(100);
  }
}

/**
 * The `n`th inbox activity: a Create, or every fourth a Like of one of `likeable` (local status
 * URIs, a list the caller may grow), each (actor, status) pair once until the list wraps.
 */
export function inboxFire(inbox: string, r: Remotes, likeable: string[]) {
  let likes = 0;
  return async (n: number): Promise<Outcome> => {
    let sender = r.actors[n % r.actors.length] as Remotes["actors"][number];
    let activity: Record<string, unknown>;
    if (n % 4 === 3 && likeable.length > 0) {
      const k = likes++;
      sender = r.actors[k % r.actors.length] as Remotes["actors"][number];
      const object = likeable[Math.floor(k / r.actors.length) % likeable.length] as string;
      activity = sender.remote.activity(sender.actor, "Like", { object });
    } else {
      const { remote, actor } = sender;
      const note = remote.note(actor, `soak-${n}`, {
        content: `<p>Soak post ${n} from a remote server, with a #soak tag</p>`,
      });
      activity = remote.create(actor, note);
    }
    try {
      const signed = await sender.remote.sign(inbox, activity);
      const res = await fetch(signed.url, {
        method: "POST",
        headers: signed.headers,
        body: signed.body,
        signal: AbortSignal.timeout(30_000),
      });
      await res.arrayBuffer();
      return { status: res.status };
    } catch (e) {
      if (e instanceof Error && e.name === "TimeoutError") return { status: 0, error: "timeout" };
      const cause = (e as { cause?: { code?: string } }).cause;
      return { status: 0, error: `socket:${cause?.code ?? (e instanceof Error ? e.message : String(e))}` };
    }
  };
}
