import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { createConsoleHarness, type SignedUp, TEST_PASSWORD } from '../testing/index.ts';

// The current team a request acts on: the `X-Team-Id` header when present, else the team the
// session selected (PUT /api/session/team), else the person's only team; several teams and none
// selected is 400 TEAM_NOT_SELECTED. A team the person is not in is 404 whichever way it is named.

const h = createConsoleHarness();
afterAll(() => h.close());

/** The id of the team GET /api/team answers (the current team), or the code of its 400. */
async function teamAnswered(test: request.Test): Promise<string> {
  const res = await test;
  if (res.status === 200) return res.body.team.id;
  expect(res.status).toBe(400);
  return res.body.error.code;
}
const currentTeamOf = (person: SignedUp, teamId?: string) => teamAnswered(h.as(person.token, teamId).get('/api/team'));
const selectTeam = (token: string, teamId: string) => h.as(token).put('/api/session/team', { teamId });
const meOf = async (token: string) => (await h.as(token).get('/api/me')).body;

/** A person who is a member of `n` teams owned by someone else, whose session has selected none. */
async function memberOf(n: number) {
  const owner = await h.signUp('owner');
  const person = await h.signUp('person');
  const teamIds: string[] = [];
  for (let i = 0; i < n; i++) teamIds.push((await h.teamOf(owner, [{ person, role: 'member' }])).teamId);
  return { owner, person, teamIds };
}

/** A second session of the same person. */
async function anotherSession(person: SignedUp): Promise<string> {
  const res = await request(h.app).post('/api/auth/sign-in').send({ email: person.email, password: TEST_PASSWORD });
  expect(res.status).toBe(200);
  return res.body.token;
}

describe('without a selection', () => {
  it('[TEAM-2] the person’s only team is the current team', async () => {
    const { person, teamIds } = await memberOf(1);
    expect(await currentTeamOf(person)).toBe(teamIds[0]);
    expect((await meOf(person.token)).currentTeamId).toBe(teamIds[0]);
    expect((await h.db.session.findFirstOrThrow({ where: { userId: person.user.id } })).teamId).toBeNull();
  });

  it('with two teams and none selected, team routes answer 400 TEAM_NOT_SELECTED and /api/me no current team', async () => {
    const { person } = await memberOf(2);
    const res = await h.as(person.token).get('/api/team');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('TEAM_NOT_SELECTED');
    const members = await h.as(person.token).get('/api/team/members');
    expect(members.status).toBe(400);
    expect(members.body.error.code).toBe('TEAM_NOT_SELECTED');
    const me = await meOf(person.token);
    expect(me.teams).toHaveLength(2);
    expect(me.currentTeamId).toBeNull();
  });

  it('with no team at all, team routes answer 400 TEAM_NOT_SELECTED', async () => {
    const person = await h.signUp('teamless');
    expect(await currentTeamOf(person)).toBe('TEAM_NOT_SELECTED');
  });
});

describe('PUT /api/session/team', () => {
  it('[TEAM-2] selects the current team for this session: /api/me reports it and GET /api/team answers it', async () => {
    const { person, teamIds } = await memberOf(2);
    const chosen = teamIds[1] as string;
    const res = await selectTeam(person.token, chosen);
    expect(res.status).toBe(200);
    expect(res.body.currentTeamId).toBe(chosen);
    expect((await meOf(person.token)).currentTeamId).toBe(chosen);
    expect(await currentTeamOf(person)).toBe(chosen);

    expect((await selectTeam(person.token, teamIds[0] as string)).status).toBe(200);
    expect(await currentTeamOf(person)).toBe(teamIds[0]);
  });

  it('selects per session: another session of the same person is unaffected', async () => {
    const { person, teamIds } = await memberOf(2);
    const second = await anotherSession(person);
    expect((await selectTeam(person.token, teamIds[0] as string)).status).toBe(200);
    expect(await teamAnswered(h.as(second).get('/api/team'))).toBe('TEAM_NOT_SELECTED');
    expect((await meOf(second)).currentTeamId).toBeNull();

    expect((await selectTeam(second, teamIds[1] as string)).status).toBe(200);
    expect(await currentTeamOf(person)).toBe(teamIds[0]);
    expect(await teamAnswered(h.as(second).get('/api/team'))).toBe(teamIds[1]);
  });

  it('refuses a team the person is not a member of, or one that does not exist, with the same 404; the selection stays', async () => {
    const { person, teamIds } = await memberOf(2);
    const stranger = await h.signUp('stranger');
    const { teamId: foreign } = await h.teamOf(stranger);
    expect((await selectTeam(person.token, teamIds[0] as string)).status).toBe(200);

    const notMine = await selectTeam(person.token, foreign);
    const nowhere = await selectTeam(person.token, randomUUID());
    for (const res of [notMine, nowhere]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect(notMine.body).toEqual(nowhere.body);
    expect(await currentTeamOf(person)).toBe(teamIds[0]);
    expect((await h.db.session.findFirstOrThrow({ where: { userId: person.user.id } })).teamId).toBe(teamIds[0]);
  });

  it('refuses a teamId that is not a UUID with 400 naming `teamId`', async () => {
    const person = await h.signUp('malformed-select');
    const res = await h.as(person.token).put('/api/session/team', { teamId: 'team-1' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_BODY');
    expect(res.body.error.details).toEqual([{ path: 'teamId', message: expect.any(String) }]);
  });
});

describe('X-Team-Id', () => {
  it('[TEAM-2] overrides the selection for one request only', async () => {
    const { person, teamIds } = await memberOf(2);
    const [selected, other] = teamIds as [string, string];
    expect((await selectTeam(person.token, selected)).status).toBe(200);
    expect(await currentTeamOf(person, other)).toBe(other);
    expect(await currentTeamOf(person)).toBe(selected);
    expect((await meOf(person.token)).currentTeamId).toBe(selected);
  });

  it('chooses among several teams when none is selected, in any letter case', async () => {
    const { person, teamIds } = await memberOf(2);
    expect(await currentTeamOf(person, teamIds[1])).toBe(teamIds[1]);
    expect(await currentTeamOf(person, teamIds[1]?.toUpperCase())).toBe(teamIds[1]);
  });

  it('of a team the person is not in, of none, or malformed: the identical 404 NOT_FOUND', async () => {
    const { person, teamIds } = await memberOf(1);
    const stranger = await h.signUp('stranger');
    const { teamId: foreign } = await h.teamOf(stranger);
    const answers = await Promise.all(
      [foreign, randomUUID(), 'not-a-team', `${teamIds[0]}x`].map((id) => h.as(person.token, id).get('/api/team')),
    );
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
      expect(res.body).toEqual(answers[0]?.body);
    }
    // The header never falls back to the only team.
    expect(await currentTeamOf(person)).toBe(teamIds[0]);
  });
});

describe('after leaving the selected team', () => {
  it('[TEAM-2] the session falls back to the only team left', async () => {
    const { person, teamIds } = await memberOf(2);
    const [left, kept] = teamIds as [string, string];
    expect((await selectTeam(person.token, left)).status).toBe(200);
    expect((await h.as(person.token).post('/api/team/leave')).status).toBe(204);
    expect(await currentTeamOf(person)).toBe(kept);
    expect((await meOf(person.token)).currentTeamId).toBe(kept);
  });

  it('answers TEAM_NOT_SELECTED when several teams are left', async () => {
    const { person, teamIds } = await memberOf(3);
    expect((await selectTeam(person.token, teamIds[0] as string)).status).toBe(200);
    expect((await h.as(person.token).post('/api/team/leave')).status).toBe(204);
    expect(await currentTeamOf(person)).toBe('TEAM_NOT_SELECTED');
    const me = await meOf(person.token);
    expect(me.currentTeamId).toBeNull();
    expect(me.teams.map((t: { id: string }) => t.id).sort()).toEqual(teamIds.slice(1).sort());
  });

  it('falls back the same way when an owner removes the person from the selected team', async () => {
    const { owner, person, teamIds } = await memberOf(2);
    const [removedFrom, kept] = teamIds as [string, string];
    expect((await selectTeam(person.token, removedFrom)).status).toBe(200);
    expect((await h.as(owner.token, removedFrom).delete(`/api/team/members/${person.user.id}`)).status).toBe(204);
    expect(await currentTeamOf(person)).toBe(kept);
    expect((await h.as(person.token, removedFrom).get('/api/team')).status).toBe(404);
  });
});

describe('POST /api/teams', () => {
  it('[TEAM-1] selects the new team for the creating session only, with the creator as owner', async () => {
    const { person, teamIds } = await memberOf(1);
    const second = await anotherSession(person);
    const created = await h
      .as(person.token)
      .post('/api/teams', { name: 'Mine', slug: `mine-${randomUUID().slice(0, 8)}` });
    expect(created.status).toBe(201);
    const newTeam: string = created.body.team.id;
    expect(created.body.role).toBe('owner');

    expect((await meOf(person.token)).currentTeamId).toBe(newTeam);
    const res = await h.as(person.token).get('/api/team');
    expect(res.body.team.id).toBe(newTeam);
    expect(res.body.role).toBe('owner');
    // The other session selected nothing, and now has two teams to choose from.
    expect(await teamAnswered(h.as(second).get('/api/team'))).toBe('TEAM_NOT_SELECTED');
    expect(teamIds).not.toContain(newTeam);
  });
});
