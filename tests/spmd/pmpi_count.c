/* Counts what a program really sends, independently of its own counter:
 * every MPI_Send, MPI_Isend, MPI_Ssend, MPI_Rsend (the sender's call) and
 * MPI_Bcast (the root's call, when there is another rank) and
 * MPI_Allgatherv (each rank's part, when it has one and there is another
 * rank: a broadcast by every owner at once) and MPI_Allreduce (each
 * rank's part, when there is another rank), as one message of
 * count * type size bytes. Loaded with LD_PRELOAD; each rank writes
 * `pmpi-count: messages=M bytes=B` to standard error at MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>

static long long messages, bytes;

static void tally(int count, MPI_Datatype type)
{
    int size;
    PMPI_Type_size(type, &size);
    messages += 1;
    bytes += (long long)count * size;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    tally(count, type);
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    tally(count, type);
    return PMPI_Ssend(buf, count, type, dest, tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    tally(count, type);
    return PMPI_Rsend(buf, count, type, dest, tag, comm);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    tally(count, type);
    return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (rank == root && size > 1)
        tally(count, type);
    return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm)
{
    int size;
    PMPI_Comm_size(comm, &size);
    if (sendcount > 0 && size > 1)
        tally(sendcount, sendtype);
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                           comm);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    int size;
    PMPI_Comm_size(comm, &size);
    if (size > 1)
        tally(count, type);
    return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int MPI_Finalize(void)
{
    fprintf(stderr, "pmpi-count: messages=%lld bytes=%lld\n", messages, bytes);
    fflush(stderr);
    return PMPI_Finalize();
}
