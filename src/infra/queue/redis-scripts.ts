/**
 * Lua scripts of the Redis queue: each runs atomically in Redis, so of several workers only
 * one takes a job. Keys, under the prefix ARGV[1]:
 *
 * - `job:ID`        hash: name, payload, run_at, max, dedupe, created_at, attempts, state,
 *                   locked_by, last_error
 * - `pending:NAME`  sorted set of waiting and delayed jobs, by run time (ms)
 * - `running`       sorted set of taken jobs, by lock expiry (ms): expired ones are taken again
 * - `dead:NAME`     sorted set of dead jobs, by time of death, capped
 * - `failing`       sorted set of jobs whose last run failed, by time of failure
 * - `dedupe:KEY`    the id of the pending job holding the key
 * - `names`         every job name seen
 */

export const ENQUEUE = `
local p, id, name = ARGV[1], ARGV[2], ARGV[3]
local dedupe = ARGV[7]
if dedupe ~= '' then
  if not redis.call('SET', p .. 'dedupe:' .. dedupe, id, 'NX') then return 0 end
end
redis.call('HSET', p .. 'job:' .. id, 'name', name, 'payload', ARGV[4], 'run_at', ARGV[5], 'max', ARGV[6],
  'dedupe', dedupe, 'created_at', ARGV[8], 'attempts', 0, 'state', 'pending', 'locked_by', '')
redis.call('ZADD', p .. 'pending:' .. name, ARGV[5], id)
redis.call('SADD', p .. 'names', name)
return 1
`;

// ARGV: prefix, worker, limit, now, locked until, names...
export const CLAIM = `
local p, w, limit, now, lockedUntil = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4], ARGV[5]
local wanted = {}
for i = 6, #ARGV do wanted[ARGV[i]] = true end
local out = {}
local function take(id, name)
  local key = p .. 'job:' .. id
  redis.call('ZADD', p .. 'running', lockedUntil, id)
  local attempts = redis.call('HINCRBY', key, 'attempts', 1)
  redis.call('HSET', key, 'locked_by', w, 'state', 'running')
  local h = redis.call('HMGET', key, 'payload', 'max')
  table.insert(out, {id, name, h[1], tostring(attempts), h[2]})
end
local expired = redis.call('ZRANGEBYSCORE', p .. 'running', '-inf', now, 'LIMIT', 0, 100)
for _, id in ipairs(expired) do
  if #out >= limit then break end
  local name = redis.call('HGET', p .. 'job:' .. id, 'name')
  if not name then
    redis.call('ZREM', p .. 'running', id)
  elseif wanted[name] then
    take(id, name)
  end
end
for i = 6, #ARGV do
  if #out >= limit then break end
  local name = ARGV[i]
  local ids = redis.call('ZRANGEBYSCORE', p .. 'pending:' .. name, '-inf', now, 'LIMIT', 0, limit - #out)
  for _, id in ipairs(ids) do
    redis.call('ZREM', p .. 'pending:' .. name, id)
    local dedupe = redis.call('HGET', p .. 'job:' .. id, 'dedupe')
    if dedupe and dedupe ~= '' and redis.call('GET', p .. 'dedupe:' .. dedupe) == id then
      redis.call('DEL', p .. 'dedupe:' .. dedupe)
    end
    take(id, name)
  end
end
return out
`;

// ARGV: prefix, worker, locked until, ids...
export const EXTEND = `
local p, w = ARGV[1], ARGV[2]
for i = 4, #ARGV do
  if redis.call('HGET', p .. 'job:' .. ARGV[i], 'locked_by') == w then
    redis.call('ZADD', p .. 'running', 'XX', ARGV[3], ARGV[i])
  end
end
return 0
`;

// ARGV: prefix, worker, ids...
export const COMPLETE = `
local p, w = ARGV[1], ARGV[2]
local n = 0
for i = 3, #ARGV do
  local id = ARGV[i]
  local key = p .. 'job:' .. id
  if redis.call('HGET', key, 'locked_by') == w then
    redis.call('ZREM', p .. 'running', id)
    redis.call('ZREM', p .. 'failing', id)
    redis.call('DEL', key)
    n = n + 1
  end
end
return n
`;

// ARGV: prefix, worker, id, run at, error, now
export const RETRY = `
local p, w, id = ARGV[1], ARGV[2], ARGV[3]
local key = p .. 'job:' .. id
if redis.call('HGET', key, 'locked_by') ~= w then return 0 end
redis.call('ZREM', p .. 'running', id)
local h = redis.call('HMGET', key, 'name', 'dedupe')
local name, dedupe = h[1], h[2]
if dedupe and dedupe ~= '' then
  -- A newer job with the same key waits already: it does the work.
  if not redis.call('SET', p .. 'dedupe:' .. dedupe, id, 'NX') then
    redis.call('ZREM', p .. 'failing', id)
    redis.call('DEL', key)
    return 1
  end
end
redis.call('HSET', key, 'state', 'pending', 'run_at', ARGV[4], 'last_error', ARGV[5], 'locked_by', '')
redis.call('ZADD', p .. 'pending:' .. name, ARGV[4], id)
redis.call('ZADD', p .. 'failing', ARGV[6], id)
return 1
`;

// ARGV: prefix, worker, id, error, now, dead jobs kept per name
export const KILL = `
local p, w, id = ARGV[1], ARGV[2], ARGV[3]
local key = p .. 'job:' .. id
if redis.call('HGET', key, 'locked_by') ~= w then return 0 end
redis.call('ZREM', p .. 'running', id)
local name = redis.call('HGET', key, 'name')
redis.call('HSET', key, 'state', 'dead', 'last_error', ARGV[4], 'locked_by', '')
redis.call('ZADD', p .. 'dead:' .. name, ARGV[5], id)
redis.call('ZADD', p .. 'failing', ARGV[5], id)
local keep = tonumber(ARGV[6])
local n = redis.call('ZCARD', p .. 'dead:' .. name)
if n > keep then
  for _, old in ipairs(redis.call('ZRANGE', p .. 'dead:' .. name, 0, n - keep - 1)) do
    redis.call('DEL', p .. 'job:' .. old)
    redis.call('ZREM', p .. 'failing', old)
  end
  redis.call('ZREMRANGEBYRANK', p .. 'dead:' .. name, 0, n - keep - 1)
end
return 1
`;
