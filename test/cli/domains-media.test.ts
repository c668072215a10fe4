import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createInstance, gannetOk, type Instance } from "./harness.ts";

describe("gannet domains block --reject-media", () => {
  let inst: Instance;
  before(async () => {
    inst = await createInstance();
  });
  after(() => inst.cleanup());

  it("removes the cached copies of the domain's media, keeping the rows", async () => {
    const ids = { fine: "", spam: "", media: "" };
    let ctx = await inst.openContext();
    try {
      const now = new Date().toISOString();
      for (const [name, domain] of [
        ["spam", "sub.spam.example"],
        ["fine", "fine.example"],
      ] as const) {
        const id = ctx.ids.next();
        ids[name] = id;
        const avatar = `cache/accounts/avatars/${id}/a.png`;
        await ctx.blobs.put(avatar, new Uint8Array([1, 2, 3]), "image/png");
        await ctx.repos.accounts.insert({
          id,
          username: name,
          domain,
          uri: `https://${domain}/users/${name}`,
          avatar_remote_url: `https://${domain}/a.png`,
          avatar_path: avatar,
          created_at: now,
          updated_at: now,
        });
      }
      ids.media = ctx.ids.next();
      await ctx.blobs.put(`cache/media_attachments/${ids.media}/x/original.png`, new Uint8Array([1]), "image/png");
      await ctx.repos.media.insert({
        id: ids.media,
        account_id: ids.spam,
        status_id: null,
        scheduled_status_id: null,
        type: "image",
        remote_url: "https://sub.spam.example/p.png",
        file_key: `cache/media_attachments/${ids.media}/x/original.png`,
        created_at: now,
        updated_at: now,
      });
    } finally {
      await ctx.close();
    }
    assert.equal(
      await gannetOk(inst, "domains", "block", "spam.example", "--severity", "noop", "--reject-media"),
      "OK\n",
    );
    ctx = await inst.openContext();
    try {
      const spam = await ctx.repos.accounts.getById(ids.spam);
      assert.equal(spam?.avatarPath, null);
      assert.equal(spam?.avatarRemoteUrl, "https://sub.spam.example/a.png", "the row stays");
      assert.equal(await ctx.blobs.stat(`cache/accounts/avatars/${ids.spam}/a.png`), undefined, "the file is gone");
      assert.equal((await ctx.repos.media.getById(ids.media))?.fileKey, null);
      assert.equal(
        (await ctx.repos.accounts.getById(ids.fine))?.avatarPath,
        `cache/accounts/avatars/${ids.fine}/a.png`,
      );
    } finally {
      await ctx.close();
    }
  });
});
