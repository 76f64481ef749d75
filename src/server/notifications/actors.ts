// How a person is named in a notification: the client's name with the login that acted, so
// staff can tell two logins of one client apart.
export function clientActor(user: { username: string; name?: string }): string {
  return user.name && user.name !== user.username ? `${user.name} (${user.username})` : user.username;
}
