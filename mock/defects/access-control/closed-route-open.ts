import type { Policy } from '../../routing/policy.ts';
import { loadPolicy } from '../../routing/policy.ts';
import { defineDefect } from '../unit/define.ts';

export default defineDefect({
  name: 'closed-route-open',
  layer: 'access control',
  bug: 'Serves a route its access rules close to every client: "closed" is read as "no credentials needed".',
  seenIn:
    'Access rules evaluated as "deny if a rule matches the credentials", so a rule with no credentials never matches.',
  hooks: {
    settings: (config) => {
      const policy = loadPolicy(config.policy, config.policyPath);
      const opened: Policy = {
        ...policy,
        routes: policy.routes.map((route) => ({
          ...route,
          methods: Object.fromEntries(
            Object.entries(route.methods).map(([method, access]) => [
              method,
              access === 'closed' ? 'public' : access,
            ]),
          ),
        })),
      };
      return { ...config, policy: opened };
    },
  },
});
