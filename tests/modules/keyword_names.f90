! Modules named like statement keywords (DATA, PRINT): Fortran reserves
! no words, so USE takes them as names, with ONLY lists and renames.
module data
  implicit none
  real :: a(10)
  integer :: n = 10
end module data
module print
  use data, only: n
  integer :: m
end module print
program p
  use data, only: a, nn => n
  use print
  integer :: i
  do i = 1, nn
    a(i) = i
  end do
  print *, a(3)
end program p
