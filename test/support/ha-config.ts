/**
 * The configuration files of the failover test's cluster (test/support/ha-cluster.ts): Patroni's
 * per node, with timings short enough that a failover takes seconds, and HAProxy's, which sends
 * clients to whichever node answers Patroni's `GET /primary` with 200.
 */
import path from 'node:path'

/** The machine's PostgreSQL 15 (Debian's postgresql-15), which Patroni runs. */
export const PG_BIN = '/usr/lib/postgresql/15/bin'

export interface NodePorts {
  name: string
  pgPort: number
  restPort: number
  /** The node's folder (its data folder inside, its socket and .pgpass beside). */
  dir: string
}

export function patroniConfig(node: NodePorts, etcdPort: number, o: { synchronous: boolean }): string {
  // Short timings so a failover takes seconds: the leader key lives `ttl` s, Patroni looks every `loop_wait` s.
  return `scope: aizk-ha
name: ${node.name}
log:
  level: ${process.env.AIZK_HA_PATRONI_LOG ?? 'ERROR'}
restapi:
  listen: 127.0.0.1:${node.restPort}
  connect_address: 127.0.0.1:${node.restPort}
etcd3:
  hosts: 127.0.0.1:${etcdPort}
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: 16777216
    synchronous_mode: ${o.synchronous}
    postgresql:
      use_pg_rewind: true
      remove_data_directory_on_rewind_failure: true
      remove_data_directory_on_diverged_timelines: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 5
        max_replication_slots: 5
        wal_keep_size: 256MB
        max_connections: 200
        fsync: 'off'
  initdb:
    - no-sync
    - encoding: UTF8
    - locale: C.UTF-8
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication replicator 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${node.pgPort}
  connect_address: 127.0.0.1:${node.pgPort}
  data_dir: ${path.join(node.dir, 'data')}
  bin_dir: ${PG_BIN}
  pgpass: ${path.join(node.dir, 'pgpass')}
  authentication:
    superuser:
      username: postgres
      password: postgres
    replication:
      username: replicator
      password: replicator
    rewind:
      username: postgres
      password: postgres
  parameters:
    unix_socket_directories: ${node.dir}
`
}

export function haproxyConfig(port: number, nodes: NodePorts[]): string {
  // A leader that stops answering /primary is marked down within a second, and its sessions cut.
  return `global
  maxconn 1000
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
listen primary
  bind 127.0.0.1:${port}
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 300ms fall 2 rise 1 on-marked-down shutdown-sessions
${nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.pgPort} check port ${n.restPort}`).join('\n')}
`
}
