! The sizes of a distributed Jacobi sweep, in a module the main program
! uses (tests/spmd.rs: `kaiseki spmd` on the two files of a program).
module jacobi_mod
  implicit none
  integer, parameter :: n = 48
  integer, parameter :: steps = 5
end module jacobi_mod
